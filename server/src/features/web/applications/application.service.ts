import path from 'node:path';
import { createHash } from 'node:crypto';
import {
  APP_TYPES_SUPPORTED,
  type AppListQuery,
  appLabels,
  appMessages,
  type DeployLog,
  RELEASE_RETENTION,
  type WebAppCapabilities,
  type WebApplication,
  type WebApplicationSummary,
  type WebApplicationValues,
  type WebAppRelease,
  type WebAppReleaseDetail,
} from '@mailroom/contract/web/applications';
import { formatInvalid } from '@mailroom/contract/web/fields';
import { VHOST_DEFAULTS, type VirtualHostValues, webMessages } from '@mailroom/contract/web/vhosts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import {
  ensureAppFolder,
  ensureAppUser,
  probeHttp,
  reapOrphanedApps,
  removeAppUser,
  removeTree,
  type RunAs,
} from '../../../host/app-process.ts';
import { resolveExisting } from '../../../host/apache-host.ts';
import type { CursorPage } from '../../../http/cursor.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import type { SecretVault } from '../../../security/secret-vault.ts';
import { siteAvailablePath } from '../stack/apache-layout.ts';
import { forbiddenDirective } from '../stack/custom-directives.ts';
import type { WebContext } from '../stack/web-context.ts';
import { dayFigures } from '../stats/web-stats.service.ts';
import { allowedRoots } from '../vhosts/vhost.service.ts';
import {
  deleteVhost,
  findByDomain,
  findById,
  insertVhost,
  nameOwner,
  rowValues,
  updateVhost,
} from '../vhosts/vhost.repository.ts';
import {
  type AppConfig,
  type AppRow,
  type AppRuntimePatch,
  deleteApp,
  findAppByDomain,
  findAppByName,
  insertApp,
  listAppRows,
  patchAppRuntime,
  rowConfig,
  updateAppConfig,
  appsWithStatus,
} from './application.repository.ts';
import { type AppRuntime, launchRelease } from './app-runtime.ts';
import {
  findRelease,
  jobState,
  latestLogJob,
  listReleases,
  readLogLines,
  releasesDiskUsage,
  toRelease,
  releaseCommits,
} from './release.repository.ts';

type Db = Kysely<Database>;

/** Characters Apache would read as quoting, escapes or variables: refused in a path. */
const UNSAFE_PATH = /["\\$`]/;

/** Fields shown in the form that Mailroom does not act on yet, and why (capabilities + 400 when turned on). */
export const NOT_BUILT: Partial<Record<keyof WebApplicationValues, string>> = {
  enableAutoDeploy: 'no webhook or polling of the remote yet; deploy from the console or the API',
  enableLoadBalancing: 'one running instance per application (no mod_proxy_balancer yet)',
  enableScaling: 'one running instance per application',
};

const HEALTH_FAILED = 'Health check failed:';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export const releasesFolder = (c: AppConfig) => `${c.deploymentPath.replace(/\/+$/, '')}/releases`;
export const appLogFile = (c: AppConfig) =>
  c.logPath || `${c.deploymentPath.replace(/\/+$/, '')}/logs/${c.name}.log`;

/** The virtual host an application is served by: the app's domain, security and cache fields. */
export function vhostValuesFor(
  c: AppConfig,
  status: VirtualHostValues['status'],
  base: VirtualHostValues | null,
): VirtualHostValues {
  return {
    ...VHOST_DEFAULTS,
    ...(base ?? {}),
    domain: c.domain,
    serverName: base?.serverName ?? c.domain,
    documentRoot: c.deploymentPath,
    status: c.enableMaintenanceMode ? 'maintenance' : status,
    sslEnabled: c.sslEnabled,
    sslCertificateId: null,
    sslCertificate: c.sslCertificate,
    sslPrivateKey: c.sslPrivateKey,
    enableGzip: c.enableCompression,
    enableCaching: c.enableCaching,
    cacheExpiry: c.cacheExpiry,
    enablePhp: false,
    enableSecurityHeaders: c.enableSecurityHeaders,
    enableRateLimiting: c.enableRateLimiting,
    rateLimitRequests: c.rateLimitRequests,
    rateLimitWindow: c.rateLimitWindow,
    enableAccessControl: c.enableAccessControl,
    allowedIps: c.allowedIps,
    blockedIps: c.blockedIps,
    enableMaintenanceMode: c.enableMaintenanceMode,
    maintenanceMessage: c.maintenanceMessage,
    customDirectives: c.customDirectives,
  };
}

/**
 * The reason of an app's error in one line: a failed deploy's "Failed: …" line (its message is the
 * deploy log's tail), else the message's first line (a failed check, an exit, a stop mid-deploy).
 */
function alertReason(message: string): string {
  const lines = message.split('\n').filter((l) => l.trim());
  return lines.findLast((l) => /\bFailed: /.test(l)) ?? lines[0] ?? '';
}

/** An alert condition in the shape of the system alerts (wired in app.ts). */
export interface AppAlertCondition {
  key: string;
  type: string;
  severity: 'critical';
  title: string;
  message: string;
}

export class ApplicationService {
  constructor(
    readonly ctx: WebContext,
    readonly vault: SecretVault,
    readonly runtime: AppRuntime,
  ) {}

  get db(): Db {
    return this.ctx.db;
  }

  // ---------- reading ----------

  sealEnv(env: Record<string, string>): { sealed: string; names: string[] } {
    return { sealed: this.vault.seal(JSON.stringify(env)), names: Object.keys(env).sort() };
  }

  openEnv(sealed: string): Record<string, string> {
    return JSON.parse(this.vault.open(sealed)) as Record<string, string>;
  }

  private summary(
    row: AppRow,
    extra: { figures?: { requests: number; errors: number }; disk?: number; commit?: string | null },
  ): WebApplicationSummary {
    const c = rowConfig(row);
    const run = this.runtime.get(Number(row.id));
    return {
      id: Number(row.id),
      ...c,
      status: row.status as WebApplicationSummary['status'],
      statusMessage: row.status_message,
      lastDeployed: row.last_deployed,
      uptime: run?.proc.startedAt ? Math.round((Date.now() - run.proc.startedAt) / 1000) : null,
      requests: extra.figures?.requests ?? 0,
      errors: extra.figures?.errors ?? 0,
      environmentVariableNames: JSON.parse(row.env_names) as string[],
      currentReleaseId: row.current_release_id === null ? null : Number(row.current_release_id),
      currentCommit: extra.commit ?? null,
      runningPort: row.running_port === null ? null : Number(row.running_port),
      pid: run?.proc.pid ?? null,
      diskUsage: extra.disk ?? 0,
      deployJobId: row.deploy_job_id === null ? null : Number(row.deploy_job_id),
      runAs: isRoot() ? `mr-app-${c.name}` : '',
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private async extras(rows: AppRow[]) {
    const figures = await dayFigures(this.ctx);
    const disk = await releasesDiskUsage(this.db);
    const ids = rows.map((r) => r.current_release_id).filter((x): x is number => x !== null);
    const commits = new Map<number, string | null>();
    if (ids.length) {
      for (const r of await releaseCommits(this.db, ids)) commits.set(Number(r.id), r.commit_sha);
    }
    return (row: AppRow) => {
      const f = figures.get(row.domain);
      return {
        figures: { requests: f?.requests ?? 0, errors: f?.errors ?? 0 },
        disk: disk.get(Number(row.id)) ?? 0,
        commit:
          row.current_release_id === null ? null : (commits.get(Number(row.current_release_id)) ?? null),
      };
    };
  }

  async list(query: AppListQuery): Promise<CursorPage<WebApplicationSummary>> {
    const page = await listAppRows(this.db, query as never);
    const extra = await this.extras(page.items);
    return { ...page, items: page.items.map((r) => this.summary(r, extra(r))) };
  }

  async row(name: string): Promise<AppRow> {
    const row = await findAppByName(this.db, name);
    if (!row) throw notFound(appMessages.notFound(name));
    return row;
  }

  async view(row: AppRow): Promise<WebApplication> {
    const extra = await this.extras([row]);
    return { ...this.summary(row, extra(row)), customEnvironmentVariables: this.openEnv(row.env_sealed) };
  }

  async get(name: string): Promise<WebApplication> {
    return this.view(await this.row(name));
  }

  async capabilities(): Promise<WebAppCapabilities> {
    const unsupported: Record<string, string> = {};
    for (const t of ['Angular', 'PHP', 'Python', 'Roundcube', 'WordPress', 'Drupal'])
      unsupported[t] = appMessages.typeNotSupported(t);
    return {
      supportedTypes: [...APP_TYPES_SUPPORTED],
      unsupportedTypes: unsupported,
      fields: { ...NOT_BUILT },
      allowedRoots: await allowedRoots(this.ctx),
      ownUser: isRoot()
        ? { enabled: true, reason: 'Each application runs as its own system user mr-app-<name>' }
        : { enabled: false, reason: 'Mailroom is not running as root: applications run as its user' },
      supervised: {
        enabled: true,
        reason:
          'Mailroom runs each live release itself and restarts it after a crash (1 s, 2 s, 4 s … up to 30 s)',
      },
      releaseRetention: RELEASE_RETENTION,
    };
  }

  async releases(name: string): Promise<WebAppRelease[]> {
    const row = await this.row(name);
    return (await listReleases(this.db, Number(row.id))).map(toRelease);
  }

  async release(name: string, id: number): Promise<WebAppReleaseDetail> {
    const row = await this.row(name);
    const r = await findRelease(this.db, Number(row.id), id);
    if (!r) throw notFound(appMessages.releaseNotFound(id));
    return { ...toRelease(r), buildLog: r.build_log };
  }

  async deployLog(name: string, q: { jobId?: number; after?: number; limit?: number }): Promise<DeployLog> {
    const row = await this.row(name);
    const jobId = q.jobId ?? (await latestLogJob(this.db, Number(row.id)));
    if (jobId === null) return { jobId: null, state: null, lines: [], lastSeq: q.after ?? 0, done: true };
    const state = await jobState(this.db, jobId);
    const limit = q.limit ?? 1000;
    const lines = await readLogLines(this.db, jobId, q.after ?? 0, limit);
    const ended = state !== 'running' && state !== 'queued';
    return {
      jobId,
      state,
      lines,
      lastSeq: lines.length ? lines[lines.length - 1]!.seq : (q.after ?? 0),
      done: ended && lines.length < limit,
    };
  }

  // ---------- checks ----------

  private async check(v: WebApplicationValues, exceptVhostId: number | null): Promise<void> {
    if (!APP_TYPES_SUPPORTED.includes(v.type)) throw fieldError('type', appMessages.typeNotSupported(v.type));
    for (const [field, why] of Object.entries(NOT_BUILT)) {
      if (v[field as keyof WebApplicationValues] === true)
        throw fieldError(
          field,
          appMessages.fieldNotSupported(appLabels[field as keyof typeof appLabels], why),
        );
    }
    if (UNSAFE_PATH.test(v.deploymentPath))
      throw fieldError('deploymentPath', formatInvalid(appLabels.deploymentPath));
    if (v.logPath && UNSAFE_PATH.test(v.logPath))
      throw fieldError('logPath', formatInvalid(appLabels.logPath));
    const roots = await allowedRoots(this.ctx);
    const real = await resolveExisting(this.ctx.deps.host, v.deploymentPath);
    const inside = (p: string) => roots.some((r) => p === r || p.startsWith(r + '/'));
    if (!inside(v.deploymentPath) || !inside(real) || roots.includes(real))
      throw fieldError('deploymentPath', appMessages.deploymentPathOutside(roots));
    const bad = forbiddenDirective(v.customDirectives);
    if (bad) throw fieldError('customDirectives', webMessages.directiveForbidden(bad.line, bad.what));
    if (v.sslEnabled && (v.sslCertificate === '' || v.sslPrivateKey === ''))
      throw fieldError('sslCertificate', webMessages.certificateRequired);
    const clash = await nameOwner(this.db, [v.domain], exceptVhostId);
    if (clash && clash.domain !== v.domain)
      throw conflict(webMessages.nameInUse(v.domain, clash.domain), [
        { field: 'domain', message: webMessages.nameInUse(v.domain, clash.domain) },
      ]);
  }

  private static config(v: WebApplicationValues): AppConfig {
    const { customEnvironmentVariables: _env, ...c } = v;
    return { ...c, domain: c.domain.toLowerCase() };
  }

  // ---------- saving ----------

  async create(v: WebApplicationValues): Promise<WebApplication> {
    if (await findAppByName(this.db, v.name))
      throw conflict(appMessages.exists(v.name), [{ field: 'name', message: appMessages.exists(v.name) }]);
    const owner = await findAppByDomain(this.db, v.domain);
    if (owner)
      throw conflict(appMessages.domainTaken(v.domain, owner.name), [
        { field: 'domain', message: appMessages.domainTaken(v.domain, owner.name) },
      ]);
    const existing = await findByDomain(this.db, v.domain);
    await this.check(v, existing ? Number(existing.id) : null);
    const c = ApplicationService.config(v);
    const env = this.sealEnv(v.customEnvironmentVariables);
    await ensureAppFolder(this.ctx.deps.host.path(c.deploymentPath));
    const report = await this.ctx.apply({
      change: async (trx) => {
        const vhost = existing
          ? await updateVhost(trx, Number(existing.id), vhostValuesFor(c, 'inactive', rowValues(existing)))
          : await insertVhost(trx, vhostValuesFor(c, 'inactive', null));
        return insertApp(trx, c, Number(vhost.id), env);
      },
      only: () => [c.domain],
      audit: () => ({ target: c.name, after: { ...c, customEnvironmentVariables: env.names } }),
    });
    return this.view(report.value);
  }

  async update(name: string, v: WebApplicationValues): Promise<WebApplication> {
    const row = await this.row(name);
    if (v.name !== name)
      throw fieldError('name', `${appLabels.name} cannot be changed (it names the app's user and folders)`);
    const owner = await findAppByDomain(this.db, v.domain);
    if (owner && owner.name !== name)
      throw conflict(appMessages.domainTaken(v.domain, owner.name), [
        { field: 'domain', message: appMessages.domainTaken(v.domain, owner.name) },
      ]);
    await this.check(v, Number(row.vhost_id));
    const before = rowConfig(row);
    const c = ApplicationService.config(v);
    const env = this.sealEnv(v.customEnvironmentVariables);
    const vhost = await findById(this.db, Number(row.vhost_id));
    await ensureAppFolder(this.ctx.deps.host.path(c.deploymentPath));
    const serving = row.status === 'active' || (row.status === 'error' && row.running_port !== null);
    const report = await this.ctx.apply({
      change: async (trx) => {
        await updateVhost(
          trx,
          Number(row.vhost_id),
          vhostValuesFor(c, serving ? 'active' : 'inactive', vhost ? rowValues(vhost) : null),
        );
        return updateAppConfig(trx, Number(row.id), c, env);
      },
      only: () => [c.domain],
      removed: c.domain !== before.domain ? [before.domain] : [],
      audit: () => ({ target: name, before, after: { ...c, customEnvironmentVariables: env.names } }),
    });
    return this.view(report.value);
  }

  async remove(name: string, keepFiles: boolean): Promise<{ filesRemoved: boolean; deploymentPath: string }> {
    const row = await this.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    const c = rowConfig(row);
    await this.ctx.apply({
      change: async (trx) => {
        await deleteApp(trx, Number(row.id));
        await deleteVhost(trx, Number(row.vhost_id));
      },
      only: () => [],
      removed: [c.domain],
      audit: () => ({
        target: name,
        before: { domain: c.domain, deploymentPath: c.deploymentPath },
        details: { keepFiles },
      }),
    });
    const run = this.runtime.get(Number(row.id));
    if (run) {
      await run.proc.stop(c.shutdownTimeout * 1000);
      this.runtime.forget(Number(row.id), run.releaseId);
    }
    if (!keepFiles) await removeTree(this.ctx.deps.host.path(c.deploymentPath));
    await removeAppUser(c.name);
    return { filesRemoved: !keepFiles, deploymentPath: c.deploymentPath };
  }

  // ---------- running ----------

  /** Points the app's virtual host at `runningPort` (null: 503) in one apply; answers the file's hash. */
  async switchTo(
    row: AppRow,
    patch: AppRuntimePatch,
    vhostStatus: 'active' | 'inactive',
  ): Promise<{ row: AppRow; hash: string | null }> {
    const c = rowConfig(row);
    const vhost = await findById(this.db, Number(row.vhost_id));
    const report = await this.ctx.apply({
      change: async (trx) => {
        if (vhost)
          await updateVhost(trx, Number(row.vhost_id), vhostValuesFor(c, vhostStatus, rowValues(vhost)));
        return patchAppRuntime(trx, Number(row.id), patch);
      },
      only: () => [c.domain],
    });
    const text = await this.ctx.deps.host.readFile(siteAvailablePath(c.domain));
    return {
      row: report.value,
      hash: text === null ? null : createHash('sha256').update(text).digest('hex'),
    };
  }

  async runAs(name: string): Promise<RunAs> {
    return (await ensureAppUser(name)).runAs;
  }

  /** Starts the live release (Node.js: a fresh process, health-checked, then Apache switched to it). */
  async start(name: string): Promise<WebApplication> {
    const row = await this.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    if (row.current_release_id === null) throw conflict(appMessages.noRelease(name));
    const c = rowConfig(row);
    if (c.type === 'Static') {
      const out = await this.switchTo(row, { status: 'active', status_message: '' }, 'active');
      return this.view(out.row);
    }
    const rel = await findRelease(this.db, Number(row.id), Number(row.current_release_id));
    if (!rel?.path) throw conflict(appMessages.noRelease(name));
    const old = this.runtime.get(Number(row.id));
    // Nothing of this app runs under this Mailroom: a process a killed Mailroom left behind (its
    // pid file in the releases folder) would keep serving beside the new one; it is stopped first.
    if (!old) await reapOrphanedApps(path.dirname(this.ctx.deps.host.path(rel.path)));
    const launched = await launchRelease(c, {
      releaseId: Number(rel.id),
      cwd: this.ctx.deps.host.path(rel.path),
      env: this.openEnv(rel.env_sealed),
      runAs: await this.runAs(c.name),
      logFile: this.ctx.deps.host.path(appLogFile(c)),
      skipPorts: this.runtime.ports(),
      log: () => undefined,
    }).catch(async (err: unknown) => {
      const tail = ((err as { tail?: string[] }).tail ?? []).join('\n');
      await patchAppRuntime(this.db, Number(row.id), {
        status: 'error',
        status_message: `${(err as Error).message}${tail ? `\n${tail}` : ''}`,
      });
      throw conflict((err as Error).message);
    });
    this.runtime.set(Number(row.id), launched.running);
    const out = await this.switchTo(
      row,
      { status: 'active', status_message: '', running_port: launched.running.port },
      'active',
    );
    if (old && old.proc !== launched.running.proc) await old.proc.stop(c.shutdownTimeout * 1000);
    return this.view(out.row);
  }

  /** Stops the app: Apache answers 503 for its domain first, then the process is stopped. */
  async stop(name: string): Promise<WebApplication> {
    const row = await this.row(name);
    if (row.status === 'deploying') throw conflict(appMessages.busy(name));
    const c = rowConfig(row);
    const out = await this.switchTo(
      row,
      { status: 'inactive', status_message: '', running_port: null },
      'inactive',
    );
    const run = this.runtime.get(Number(row.id));
    if (run) {
      await run.proc.stop(c.shutdownTimeout * 1000);
      this.runtime.forget(Number(row.id), run.releaseId);
    }
    return this.view(out.row);
  }

  async restart(name: string): Promise<WebApplication> {
    return this.start(name);
  }

  async toggle(name: string): Promise<WebApplication> {
    const row = await this.row(name);
    return row.status === 'active' ? this.stop(name) : this.start(name);
  }

  private readonly lastCheck = new Map<number, number>();

  /**
   * Health checks keep running after a deploy: every Health Check Interval the running release is
   * asked for its health path; a failure sets the app to error with the answer, a later success
   * sets it back to active (only when the error was a failed check).
   */
  async checkHealth(now = Date.now()): Promise<void> {
    const rows = await appsWithStatus(this.db, ['active', 'error'], { running: true });
    for (const row of rows) {
      const c = rowConfig(row);
      const id = Number(row.id);
      if (!c.enableHealthChecks || !this.runtime.get(id)) continue;
      if (now - (this.lastCheck.get(id) ?? 0) < c.healthCheckInterval * 1000) continue;
      this.lastCheck.set(id, now);
      const status = await probeHttp(
        Number(row.running_port),
        c.healthCheckPath,
        c.healthCheckTimeout * 1000,
      );
      const ok = status !== null && status >= 200 && status < 300;
      if (!ok && row.status === 'active')
        await patchAppRuntime(this.db, id, {
          status: 'error',
          status_message: `${HEALTH_FAILED} ${c.healthCheckPath} answered ${status === null ? 'nothing' : `HTTP ${status}`} within ${c.healthCheckTimeout} s`,
        });
      else if (ok && row.status === 'error' && row.status_message.startsWith(HEALTH_FAILED))
        await patchAppRuntime(this.db, id, { status: 'active', status_message: '' });
    }
  }

  /**
   * The system alerts' conditions of this area: one per application in error (a failed health
   * check, a crash loop, a release that never became healthy), resolved when it is active again.
   */
  async alertConditions(): Promise<AppAlertCondition[]> {
    const rows = await appsWithStatus(this.db, ['error']);
    return rows.map((r) => ({
      key: `app:${r.name}`,
      type: 'application',
      severity: 'critical' as const,
      title: `Application unhealthy: ${r.name}`,
      message: alertReason(r.status_message) || `${r.name} is in error.`,
    }));
  }

  /** Mailroom started: run again the live release of every application that was serving. */
  async resumeAll(log: (msg: string, err?: unknown) => void): Promise<void> {
    const rows = await appsWithStatus(this.db, ['active', 'deploying']);
    for (const r of rows) {
      try {
        if (r.status === 'deploying')
          await patchAppRuntime(this.db, Number(r.id), {
            status: 'error',
            status_message: 'The server stopped during the deploy',
            deploy_job_id: null,
          });
        if (r.current_release_id !== null && r.type !== 'Static') await this.start(r.name);
      } catch (err) {
        log(`web app ${r.name} did not start`, err);
      }
    }
  }
}

/** The retention rule (documented in the contract): the live release and the newest before it, RELEASE_RETENTION folders in all. */
export function releasesToPrune<T extends { id: number; path: string | null }>(
  newestFirst: T[],
  liveId: number,
): T[] {
  const keep = new Set<string>();
  const live = newestFirst.find((r) => r.id === liveId);
  if (live?.path) keep.add(live.path);
  for (const r of newestFirst) {
    if (keep.size >= RELEASE_RETENTION) break;
    if (r.path) keep.add(r.path);
  }
  return newestFirst.filter((r) => r.path !== null && !keep.has(r.path));
}

import {
  type AppListQuery,
  APP_PROCESS_TYPES,
  appLabels,
  appMessages,
  type DeployLog,
  type WebAppCapabilities,
  type WebApplication,
  type WebApplicationSummary,
  type WebApplicationValues,
  type WebAppRelease,
  type WebAppReleaseDetail,
} from '@mailroom/contract/web/applications';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { ensureAppFolder, removeAppUser, removeTree, runningAppPid } from '../../../host/app-process.ts';
import type { CursorPage } from '../../../http/cursor.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import type { SecretVault } from '../../../security/secret-vault.ts';
import type { WebContext } from '../stack/web.context.ts';
import { dayFigures } from '../stats/web-stats.service.ts';
import {
  deleteVhost,
  findByDomain,
  findById,
  insertVhost,
  rowValues,
  updateVhost,
} from '../vhosts/vhost.repository.ts';
import {
  type AppConfig,
  type AppRow,
  deleteApp,
  findAppByDomain,
  findAppByName,
  insertApp,
  instancePorts,
  listAppRows,
  rowConfig,
  updateAppConfig,
} from './application.repository.ts';
import { appCapabilities, checkApp } from './app-capabilities.service.ts';
import { appDataDir, isRoot, releasesFolder, vhostValuesFor } from './app.layout.ts';
import { type AppRuntime, resourceLimitsView, stopInstances } from './app-runtime.service.ts';
import { processMemoryBytes } from '../../../host/app-limits.ts';
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

/**
 * Applications as records: reading (list, one, releases, deploy log), create/update/delete with
 * their virtual host. Running them: app-lifecycle.service.ts; deploys: deploy.job.ts.
 */
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
    extra: {
      figures?: { requests: number; errors: number };
      disk?: number;
      commit?: string | null;
      instances?: WebApplicationSummary['instances'];
      limits?: WebApplicationSummary['resourceLimits'];
    },
  ): WebApplicationSummary {
    const c = rowConfig(row);
    const run = this.runtime.get(Number(row.id));
    const instances = extra.instances ?? [];
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
      pid: instances[0]?.pid ?? run?.proc.pid ?? null,
      instances,
      resourceLimits: extra.limits ?? { enforced: false, mechanism: '', detail: '' },
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
    // The instances from the stored ports and their pid files (whichever worker started them), in
    // instance order (ids 1..N: a scale-down removes the newest); the limit state of each app's fields.
    const instances = new Map<number, WebApplicationSummary['instances']>();
    for (const r of rows) {
      // Deployed before migration 0041: the running port alone.
      const stored = instancePorts(r);
      const ports = r.running_port === null ? [] : stored.length ? stored : [Number(r.running_port)];
      const local = new Map(this.runtime.instances(Number(r.id)).map((i) => [i.port, i.proc]));
      const dir = this.ctx.deps.host.path(releasesFolder(rowConfig(r)));
      const list: WebApplicationSummary['instances'] = [];
      for (const [i, port] of ports.entries()) {
        const own = local.get(port);
        const pid = own?.running ? own.pid : await runningAppPid(dir, port);
        list.push({
          id: i + 1,
          port,
          pid,
          state: pid === null ? 'restarting' : 'running',
          memoryBytes: pid === null ? null : await processMemoryBytes(pid),
        });
      }
      instances.set(Number(r.id), list);
    }
    const systemMode = this.ctx.deps.config.hostRoot === '/';
    const limits = new Map<number, WebApplicationSummary['resourceLimits']>();
    for (const r of rows) {
      const c = rowConfig(r);
      limits.set(
        Number(r.id),
        APP_PROCESS_TYPES.includes(c.type)
          ? await resourceLimitsView(c, systemMode)
          : {
              enforced: false,
              mechanism: '',
              detail: `limit not enforced: ${c.type} runs no process of its own`,
            },
      );
    }
    return (row: AppRow) => {
      const f = figures.get(row.domain);
      return {
        instances: instances.get(Number(row.id)) ?? [],
        limits: limits.get(Number(row.id))!,
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

  capabilities(): Promise<WebAppCapabilities> {
    return appCapabilities(this.ctx);
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
    const lines = await readLogLines(this.db, Number(row.id), jobId, q.after ?? 0, limit);
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

  private check(v: WebApplicationValues, exceptVhostId: number | null): Promise<void> {
    return checkApp(this.ctx, v, exceptVhostId);
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
    await ensureAppFolder(this.ctx.deps.host.path(appDataDir(c)));
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
    await ensureAppFolder(this.ctx.deps.host.path(appDataDir(c)));
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
    const run = this.runtime.instances(Number(row.id));
    if (run.length) {
      await stopInstances(run, c.shutdownTimeout * 1000);
      this.runtime.forget(Number(row.id), run[0]!.releaseId);
    }
    if (!keepFiles) await removeTree(this.ctx.deps.host.path(c.deploymentPath));
    await removeAppUser(c.name);
    // Its virtual host is gone too: a site user made for that host goes with it (as a host delete does).
    await this.ctx
      .retireSiteUser(Number(row.vhost_id), keepFiles ? c.deploymentPath : null)
      .catch(() => undefined);
    return { filesRemoved: !keepFiles, deploymentPath: c.deploymentPath };
  }
}

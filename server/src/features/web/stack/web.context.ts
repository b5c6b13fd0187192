import { ERROR_CODES } from '@mailroom/contract/errors';
import type { AppDeps } from '../../../app-deps.ts';
import { type ApplyPhase, type ApplyReport, applyChange, assertApplied } from '../../../apply/pipeline.ts';
import type { ChangeAudit } from '../../../apply/audit-scope.ts';
import {
  ensureDefaultCertificate,
  ensureFolder,
  ensureOwnedFolder,
  userIds,
} from '../../../host/apache-host.ts';
import { AppError } from '../../../http/errors.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { ApacheControl } from './apache-control.service.ts';
import { APACHE_PATHS, APACHE_USER, type ApacheMode } from './apache.layout.ts';
import { apacheTarget } from './apache.target.ts';
import {
  type AppPhpHooks,
  DEFAULT_CERT,
  renderWeb,
  type SessionFolder,
  type WebRender,
  type WebTlsPolicySource,
  type WebTlsSource,
} from './web-render.service.ts';
import { ensureSiteUser, giveSiteFilesToRoot, removeSiteUser } from '../../../host/php-fpm-host.ts';
import { ensureSessionFolder } from '../../../host/php-session-folders.ts';
import { PhpFpmControl } from '../php/php-fpm-control.service.ts';
import { siteUserName } from '../php/php.layout.ts';
import type { PoolUser } from '../php/php-pool.renderer.ts';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

type Db = Kysely<Database>;

/** Everything the web feature's services share: the mode, Apache's control, the apply of the target. */
export class WebContext {
  readonly mode: ApacheMode;
  readonly control: ApacheControl;
  /** The PHP-FPM masters of the sites' pools. */
  readonly php: PhpFpmControl;
  private last: WebRender | null = null;
  /** PHP applications' pool user and variables (set by the applications feature). */
  appPhp: AppPhpHooks | null = null;
  private readonly target;
  private prepared = false;

  constructor(
    readonly deps: AppDeps,
    readonly tls: WebTlsSource | null,
    readonly tlsPolicy: WebTlsPolicySource | null = null,
  ) {
    this.mode = ApacheControl.modeOf(deps.host, deps.config);
    this.control = new ApacheControl(deps.host, this.mode, deps.webDaemon ?? null);
    this.php = new PhpFpmControl(deps.host, this.mode, !this.mode.system && deps.webDaemon != null);
    this.target = apacheTarget(deps.host, this.control, () => this.last, this.php);
  }

  /**
   * The Unix user of a site (its files and its PHP pool): `mr-site-<id>`, made with useradd when
   * Mailroom runs as root; otherwise Mailroom's own user runs everything and there is none.
   */
  async siteUser(id: number): Promise<{ name: string; uid: number; gid: number } | null> {
    if (!isRoot()) return null;
    const name = siteUserName(id);
    const ids = await ensureSiteUser(this.deps.host, name);
    return ids ? { name, ...ids } : null;
  }

  /**
   * After a site is deleted (its pool gone with it): the files it keeps are given to root, then its
   * Unix user and group are removed, so no orphan uid owns anything. Answers what happened (null:
   * not root, there is no site user).
   */
  async retireSiteUser(id: number, keptRoot: string | null): Promise<string | null> {
    if (!isRoot()) return null;
    const name = siteUserName(id);
    const ids = await userIds(this.deps.host, name);
    if (!ids) return `${name} did not exist`;
    const given = keptRoot ? await giveSiteFilesToRoot(this.deps.host, keptRoot, ids) : 0;
    const r = await removeSiteUser(this.deps.host, name);
    return keptRoot ? `${r.output}; ${given} kept files and folders given to root` : r.output;
  }

  private async poolUser(id: number): Promise<PoolUser | null> {
    const u = await this.siteUser(id);
    return u ? { user: u.name, group: u.name, listenOwner: APACHE_USER } : null;
  }

  get db(): Db {
    return this.deps.database.db;
  }

  /** Folders Apache needs (logs, run, ACME webroot, rate-limit counters) and the catch-all certificate. */
  async prepare(): Promise<boolean> {
    const h = this.deps.host;
    await ensureFolder(h, '/var/log/apache2');
    await ensureFolder(h, APACHE_PATHS.runDir);
    await ensureFolder(h, `${APACHE_PATHS.acmeWebroot}/.well-known/acme-challenge`);
    await ensureOwnedFolder(h, APACHE_PATHS.secDataDir, APACHE_USER);
    const ok = await ensureDefaultCertificate(h, DEFAULT_CERT.cert, DEFAULT_CERT.key);
    this.prepared = true;
    return ok;
  }

  /**
   * One change through the pipeline: `change` runs in the dry-run and the commit transaction;
   * the render covers `only` hosts (and the server-wide files). A refusal by Apache is a 422 whose
   * details name the field and line of the custom directives it points at.
   */
  async apply<T>(opts: {
    change?: (trx: Db, phase: ApplyPhase) => Promise<T>;
    only?: (value: T | undefined) => string[] | undefined;
    removed?: string[];
    audit?: (value: T) => ChangeAudit;
    fieldOf?: (render: WebRender, output: string) => { field: string; line: number | null } | null;
  }): Promise<ApplyReport<T>> {
    const defaultTls = this.prepared ? true : await this.prepare();
    const installed = new Set((await this.php.installed()).keys());
    let report: ApplyReport<T>;
    try {
      report = await applyChange<T>(this.deps, {
        target: this.target,
        ...(opts.change ? { change: opts.change } : {}),
        render: async (db, value) => {
          const r = await renderWeb(
            db,
            {
              mode: this.mode,
              tls: this.tls,
              tlsPolicy: this.tlsPolicy,
              reloadCommand: this.control.reloadCommand(),
              defaultTls,
              php: {
                installed,
                poolUser: (id) => this.poolUser(id),
                idleUser: isRoot() ? APACHE_USER : null,
              },
              apps: this.appPhp,
            },
            { only: opts.only?.(value), removed: opts.removed },
          );
          // The sessions' folders exist (the site's user only) before the pools are swapped in.
          await this.ensureSessionFolders(r.sessionFolders ?? []);
          this.last = r;
          return r;
        },
        ...(opts.audit ? { audit: opts.audit } : {}),
        refusedMessage: () => 'Apache refused the configuration; nothing was saved.',
      });
    } catch (err) {
      throw this.mapRefusal(err, opts.fieldOf);
    }
    try {
      assertApplied(report.outcome);
    } catch (err) {
      throw this.mapRefusal(err, opts.fieldOf);
    }
    return report;
  }

  private async ensureSessionFolders(folders: SessionFolder[]): Promise<void> {
    for (const f of folders) {
      const u = f.owner !== undefined ? f.owner : await this.siteUser(f.siteId);
      await ensureSessionFolder(this.deps.host, f.path, u ? { uid: u.uid, gid: u.gid } : null);
    }
  }

  /** Adds the field and line Apache's words point at to a 422. */
  private mapRefusal(
    err: unknown,
    fieldOf?: (render: WebRender, output: string) => { field: string; line: number | null } | null,
  ): unknown {
    if (!(err instanceof AppError) || err.code !== ERROR_CODES.CHECK_FAILED || !this.last) return err;
    const output = String((err.details as { output?: string } | null)?.output ?? '');
    const hit = fieldOf?.(this.last, output) ?? customLineOf(this.last, output);
    if (!hit) return err;
    const words = apacheWords(output);
    const message = `${hit.line !== null ? `Custom Directives line ${hit.line}: ` : ''}${words}`;
    return new AppError(422, ERROR_CODES.CHECK_FAILED, message, {
      output,
      field: hit.field,
      line: hit.line,
      fields: [{ field: hit.field, message }],
    });
  }

  /** Applies the server-wide files only (the SSL area's TLS policy changed): no host is re-rendered. */
  applyServerWide(): Promise<ApplyReport<undefined>> {
    return this.apply<undefined>({ only: () => [] });
  }

  /** Applies the saved state of every host again (start, Retry). */
  applyAll(): Promise<ApplyReport<undefined>> {
    return this.apply<undefined>({});
  }
}

/** Apache's own sentence (the line after "Syntax error on line N of …:"). */
export function apacheWords(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const i = lines.findIndex((l) => /Syntax error on line \d+/.test(l));
  if (i >= 0) {
    const after = lines[i]!.replace(/^.*Syntax error on line \d+ of [^:]+:\s*/, '');
    return after || lines[i + 1] || lines[i]!;
  }
  return lines.find((l) => !/^AH00558/.test(l)) ?? output;
}

/** The custom directives line Apache's "Syntax error on line N of <file>" points at, if any. */
export function customLineOf(
  render: WebRender,
  output: string,
): { field: string; line: number | null } | null {
  const m = /Syntax error on line (\d+) of ([^:]+):/.exec(output);
  if (!m) return null;
  const line = Number(m[1]);
  for (const [file, c] of render.customLines) {
    if (m[2]!.endsWith(file)) return { field: c.field, line: line >= c.start ? line - c.start + 1 : null };
  }
  if (m[2]!.endsWith(APACHE_PATHS.confAvailable)) return { field: 'customDirectives', line: null };
  return null;
}

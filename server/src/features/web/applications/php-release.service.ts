import path from 'node:path';
import { appMessages, isPhpAppType, phpAppLayout } from '@mailroom/contract/web/applications';
import { fileExists, folderExists, type RunAs } from '../../../host/app-process.ts';
import { ensureDataFolder, linkKeptConfig, linkKeptFolder } from '../../../host/app-shared-data.ts';
import { fastCgiRequest } from '../../../host/fastcgi.ts';
import { phpSocket } from '../php/php.layout.ts';
import type { WebContext } from '../stack/web.context.ts';
import { appPhpVersion } from '../stack/web-render.service.ts';
import { type AppConfig, appsWithStatus, patchAppRuntime, rowConfig } from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import { appDataDir } from './app.layout.ts';
import { HEALTH_POLL_MS, healthBudgetMs } from './app-runtime.service.ts';
import { keptConfigFrom } from './php-app-config.renderer.ts';
import { findRelease } from './release.repository.ts';

/**
 * PHP applications (PHP, Roundcube, WordPress, Drupal): a release is files Apache serves, its .php
 * run by the app's own PHP-FPM pool. Before the switch a release gets the type's kept folders and
 * configuration file linked in from the data folder, and answers its health check through the pool.
 */

/** The PHP-FPM version the app runs on, or the plain refusal when none is installed. */
export async function phpVersionFor(ctx: WebContext): Promise<string> {
  const v = appPhpVersion(new Set((await ctx.php.installed()).keys()));
  if (!v) throw new Error(appMessages.phpNotInstalled);
  return v;
}

/**
 * Links the type's kept folders and configuration file into a new release (real folder `dir`),
 * logging each and what the operator must provide.
 */
export async function preparePhpRelease(
  ctx: WebContext,
  c: AppConfig,
  dir: string,
  runAs: RunAs,
  log: (text: string) => void,
): Promise<void> {
  const layout = phpAppLayout(c.type);
  if (!layout) return;
  const version = await phpVersionFor(ctx);
  log(`${c.type}: Apache serves the release; its .php files run in the app's own PHP ${version} pool`);
  const shared = ctx.deps.host.path(appDataDir(c));
  await ensureDataFolder(shared, runAs);
  for (const rel of layout.persist)
    log(`Kept across releases: ${await linkKeptFolder(dir, shared, rel, runAs)}`);
  if (layout.config) {
    const { file, sample, env } = layout.config;
    const r = await linkKeptConfig(
      dir,
      shared,
      file,
      sample,
      runAs,
      (text) => keptConfigFrom(c.type, text) ?? text,
      () => new Error(appMessages.phpConfigMissing(c.type, file, sample)),
    );
    if (r.own) log(`The repository's own ${file} is used (nothing kept across releases for it)`);
    else
      log(
        r.made
          ? `Made ${r.kept} from ${sample} (reads ${env.join(', ')} from the environment; edit it there, it is kept across releases)`
          : `${file} -> ${r.kept} (kept across releases)`,
      );
  }
  log(`The operator must provide: ${layout.needs}`);
  log(
    `Health Check Path ${c.enableHealthChecks ? c.healthCheckPath : '/ (health checks off)'}; for ${c.type}: ${layout.health}`,
  );
}

/**
 * Which script of a release answers a URL path, as Apache would serve it: a .php file, a folder's
 * index.php, a plain file (Apache serves it: null script, `file`), else the front controller
 * index.php for the types that have one; null script and no file: 404.
 */
export async function phpTarget(
  dir: string,
  urlPath: string,
  frontController: boolean,
): Promise<{ script: string | null; file: boolean }> {
  const clean = decodeURIComponent(urlPath.split('?')[0] ?? '/').replace(/^\/+/, '');
  if (clean.split('/').includes('..')) return { script: null, file: false };
  const full = path.join(dir, clean);
  if (clean === '' || (await folderExists(full))) {
    if (await fileExists(path.join(full, 'index.php')))
      return { script: path.join(clean, 'index.php'), file: false };
    if (await fileExists(path.join(full, 'index.html'))) return { script: null, file: true };
  } else if (await fileExists(full)) {
    return clean.endsWith('.php') ? { script: clean, file: false } : { script: null, file: true };
  }
  if (frontController && (await fileExists(path.join(dir, 'index.php'))))
    return { script: 'index.php', file: false };
  return { script: null, file: false };
}

/** One ask of a release's health check path through the app's pool: 2xx (or a plain file) is healthy. */
export async function probePhpOnce(
  ctx: WebContext,
  c: AppConfig,
  dir: string,
  env: Record<string, string>,
): Promise<{ ok: boolean; last: string }> {
  const url = c.enableHealthChecks ? c.healthCheckPath : '/';
  const target = await phpTarget(dir, url, phpAppLayout(c.type)?.frontController ?? false);
  if (target.file) return { ok: true, last: 'a file Apache serves' };
  if (!target.script) return { ok: false, last: `no script answers ${url} (404)` };
  const [, query = ''] = url.split(/\?(.*)/s);
  const a = await fastCgiRequest(
    ctx.mode.hostPath(phpSocket(c.domain)),
    {
      ...env,
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_SOFTWARE: 'Mailroom',
      SERVER_PROTOCOL: 'HTTP/1.1',
      SERVER_NAME: c.domain,
      SERVER_PORT: '80',
      HTTP_HOST: c.domain,
      HTTP_USER_AGENT: 'Mailroom health check',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: 'GET',
      REQUEST_URI: url,
      QUERY_STRING: query,
      DOCUMENT_ROOT: dir,
      SCRIPT_NAME: `/${target.script}`,
      SCRIPT_FILENAME: path.join(dir, target.script),
    },
    c.healthCheckTimeout * 1000,
  );
  if (a === null) return { ok: false, last: 'no answer from the pool' };
  return { ok: a.status >= 200 && a.status < 300, last: `HTTP ${a.status}` };
}

/**
 * Asks the app's PHP-FPM pool for the health check path of a release (real folder `dir`) with the
 * release's variables, directly on the pool's socket, every HEALTH_POLL_MS until it answers 2xx
 * (each try at most Health Check Timeout; Health Check Interval + Timeout in all). Throws the
 * plain reason when it never does.
 */
export async function awaitPhpHealthy(
  ctx: WebContext,
  c: AppConfig,
  dir: string,
  env: Record<string, string>,
  signal: AbortSignal | undefined,
  log: (text: string) => void,
): Promise<void> {
  const url = c.enableHealthChecks ? c.healthCheckPath : '/';
  const budget = healthBudgetMs(c);
  const deadline = Date.now() + budget;
  for (;;) {
    if (signal?.aborted) throw new Error('Cancelled');
    const r = await probePhpOnce(ctx, c, dir, env);
    if (r.ok) {
      log(`Healthy through the PHP-FPM pool (${url}: ${r.last})`);
      return;
    }
    if (Date.now() >= deadline) throw new Error(appMessages.phpHealthFailed(url, budget / 1000, r.last));
    await new Promise((res) => setTimeout(res, HEALTH_POLL_MS));
  }
}

/**
 * Health checks keep running for PHP applications that serve: every Health Check Interval the live
 * release is asked through its pool; a failure sets the app to error (a system alert), a later
 * success sets it back to active (only when the error was a failed check).
 */
export class PhpHealthWatch {
  private readonly lastCheck = new Map<number, number>();
  constructor(private readonly svc: ApplicationService) {}

  async check(now = Date.now()): Promise<void> {
    const rows = await appsWithStatus(this.svc.db, ['active', 'error']);
    for (const row of rows) {
      const c = rowConfig(row);
      const id = Number(row.id);
      if (!isPhpAppType(c.type) || !c.enableHealthChecks || row.current_release_id === null) continue;
      if (now - (this.lastCheck.get(id) ?? 0) < c.healthCheckInterval * 1000) continue;
      this.lastCheck.set(id, now);
      const rel = await findRelease(this.svc.db, id, Number(row.current_release_id));
      if (!rel?.path) continue;
      const r = await probePhpOnce(
        this.svc.ctx,
        c,
        this.svc.ctx.deps.host.path(rel.path),
        this.svc.openEnv(rel.env_sealed),
      );
      if (!r.ok && row.status === 'active')
        await patchAppRuntime(this.svc.db, id, {
          status: 'error',
          status_message: `${PHP_HEALTH_FAILED} ${c.healthCheckPath} answered ${r.last} through the PHP-FPM pool within ${c.healthCheckTimeout} s`,
        });
      else if (r.ok && row.status === 'error' && row.status_message.startsWith(PHP_HEALTH_FAILED))
        await patchAppRuntime(this.svc.db, id, { status: 'active', status_message: '' });
    }
  }
}

/** The start of a failed live check's message (the same words as the process types'). */
export const PHP_HEALTH_FAILED = 'Health check failed:';

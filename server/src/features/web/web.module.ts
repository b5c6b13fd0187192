import { WEB_DASHBOARD_APPS } from '@mailroom/contract/web/stats';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { ApacheDaemon } from '../../host/apache-daemon.ts';
import type { Host } from '../../host/host.ts';
import type { SupervisorOptions } from '../../host/supervisor.ts';
import { APACHE_PATHS } from './stack/apache.layout.ts';
import { rollUpAccessLog } from './stats/log-rollup.service.ts';
import { phpLocalMain } from './php/php.layout.ts';

const ROLLUP_INTERVAL_MS = 30_000;
import type { AppDeps } from '../../app-deps.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import { WebSettingsService } from './settings/web-settings.service.ts';
import { sslSettingsRefusals } from './settings/ssl-refusals.service.ts';
import type { SslSettings } from '@mailroom/contract/ssl';
import { WEB_TARGET } from './stack/apache.target.ts';
import { WebContext } from './stack/web.context.ts';
import type { WebTlsPolicySource, WebTlsSource } from './stack/web-render.service.ts';
import { registerApplications } from './applications/application.module.ts';
import type { AppAlertCondition } from './applications/app-lifecycle.service.ts';
import { registerWebRoutes } from './web.routes.ts';
import { withAppBackupPaths, withAppBackups } from './applications/app-backups.service.ts';
import {
  type SslAlertCondition,
  sslAlertConditions,
  sslHealthTick,
} from './ssl-health/ssl-health.service.ts';
import { type SiteBackup, VhostService } from './vhosts/vhost.service.ts';

export interface WebOptions {
  /** The SSL area's certificates for the sites (wired in app.ts; the features do not import each other). */
  tls?: WebTlsSource | null;
  /** The SSL area's settings that apply to the web server (wired in app.ts). */
  tlsPolicy?: WebTlsPolicySource | null;
}

/** Apache under Mailroom's supervisor, for main.ts (local mode as root; null otherwise or when missing). */
export function localApacheDaemon(
  host: Host,
  config: Config,
  log?: SupervisorOptions['log'],
): Promise<ApacheDaemon | null> {
  return ApacheDaemon.create(
    host,
    {
      dir: APACHE_PATHS.dir,
      main: APACHE_PATHS.main,
      pidFile: APACHE_PATHS.pidFile,
      folders: [APACHE_PATHS.runDir, '/var/log/apache2'],
      port: config.web.httpPort,
    },
    { log },
  );
}

/** Local mode: the PHP-FPM master of each version a site uses (its main file rendered) runs. */
async function startPhpMasters(ctx: WebContext): Promise<void> {
  const versions: string[] = [];
  for (const v of (await ctx.php.installed()).keys())
    if ((await ctx.deps.host.readFile(phpLocalMain(v))) !== null) versions.push(v);
  if (versions.length) await ctx.php.reload(versions);
}

export interface WebHandle {
  ctx: WebContext;
  /** The document roots of the sites with Enable Backup (system paths), for the system backups. */
  backupPaths: () => Promise<string[]>;
  /** The sites with Enable Backup, for their own backups (schedule and retention of each site). */
  siteBackups: () => Promise<SiteBackup[]>;
  /** Applications in error and served certificates in trouble (SSL alerts), as system alert conditions. */
  alertConditions: () => Promise<(AppAlertCondition | SslAlertCondition)[]>;
  /** Each application's log file (machine path), for the System Logs screen. */
  appLogs: () => Promise<{ name: string; file: string }[]>;
  /** SSL settings the installed Apache cannot honour (field -> refusal), asked before they are saved. */
  sslRefusals: (s: SslSettings) => Promise<Record<string, string>>;
}

/** Web hosting (issue 19): virtual hosts and Apache as a target of the one apply pipeline. */
export function registerWeb(app: FastifyInstance, deps: AppDeps, opts: WebOptions = {}): WebHandle {
  const ctx = new WebContext(deps, opts.tls ?? null, opts.tlsPolicy ?? null);
  const vhosts = new VhostService(ctx);
  const settings = new WebSettingsService(ctx);
  registerRetry(deps, WEB_TARGET, async () => (await ctx.applyAll()).outcome);
  const apps = registerApplications(app, deps, ctx);
  registerWebRoutes(
    app,
    ctx,
    vhosts,
    settings,
    async () => (await apps.list({ limit: WEB_DASHBOARD_APPS, sort: 'name' })).items,
  );
  // Apache's shared access log is rolled up every 30 s (and at each dashboard or list read).
  const roll = setInterval(() => {
    void rollUpAccessLog(deps).catch((err: unknown) =>
      app.log.warn({ err }, 'web: access log roll-up failed'),
    );
  }, ROLLUP_INTERVAL_MS);
  roll.unref();
  app.addHook('onClose', async () => clearInterval(roll));
  // SSL health checks at the SSL settings' interval (the alerts below read their last round).
  let healthTimer: NodeJS.Timeout | null = null;
  let closed = false;
  const healthTick = (): void => {
    void sslHealthTick(ctx)
      .catch((err: unknown) => {
        app.log.warn({ err }, 'web: SSL health checks failed');
        return 30;
      })
      .then((next) => {
        if (closed) return;
        healthTimer = setTimeout(healthTick, next * 1000);
        healthTimer.unref();
      });
  };
  app.addHook('onReady', async () => healthTick());
  app.addHook('onClose', async () => {
    closed = true;
    if (healthTimer) clearTimeout(healthTimer);
  });
  const daemon = deps.webDaemon;
  if (daemon) {
    // Local mode as root: render every host's files from the database, then run Apache from them.
    app.addHook('onReady', async () => {
      void ctx
        .applyAll()
        .catch((err: unknown) => app.log.error({ err }, 'web: the startup render failed'))
        .then(() => daemon.start())
        .then(() => startPhpMasters(ctx))
        .catch((err: unknown) => app.log.error({ err }, 'web: Apache did not start'));
    });
    app.addHook('onClose', async () => {
      await ctx.php.close();
      await daemon.close();
    });
  }
  return {
    ctx,
    // An application's host contributes the app's data folder, on the app's backup settings.
    backupPaths: async () => withAppBackupPaths(ctx.db, await vhosts.siteBackups()),
    siteBackups: async () => withAppBackups(ctx.db, await vhosts.siteBackups()),
    alertConditions: async () => [...(await apps.alertConditions()), ...(await sslAlertConditions(ctx))],
    appLogs: () => apps.logTargets(),
    sslRefusals: (s) => sslSettingsRefusals(s),
  };
}

import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { ensureAppUser } from '../../../host/app-process.ts';
import { databaseCounter } from '../../../http/rate-limit.ts';
import { SecretVault, VAULT_FILES } from '../../../security/secret-vault.ts';
import type { WebContext } from '../stack/web.context.ts';
import { registerAppMetricsRoutes } from './app-metrics.routes.ts';
import { AppObserver, scrapeIntervalMs } from './app-metrics.service.ts';
import { registerApplicationRoutes } from './application.routes.ts';
import { ApplicationService } from './application.service.ts';
import { type AppAlertCondition, AppLifecycle } from './app-lifecycle.service.ts';
import { AppRuntime } from './app-runtime.service.ts';
import { AppScaler } from './app-scaling.service.ts';
import { rollUpAccessLog } from '../stats/log-rollup.service.ts';
import { figuresSince } from '../stats/web-traffic.repository.ts';
import { registerAutoDeployRoutes } from './auto-deploy.routes.ts';
import { AutoDeploy } from './auto-deploy.service.ts';
import { DeployJobs } from './deploy.job.ts';
import { PhpHealthWatch } from './php-release.service.ts';

/** How often the health checks look for an app whose interval has passed. */
export const HEALTH_TICK_MS = 1000;
/**
 * How often auto deploy looks for applications whose remote branch is due a read (each app at
 * most every AUTO_DEPLOY_POLL_SECONDS, contract/src/web/app-auto-deploy.ts; a webhook reads at once).
 */
export const AUTO_DEPLOY_TICK_MS = 15_000;

/**
 * Web applications (issue 20): routes, the app processes Mailroom supervises (started again at
 * start-up for every application that was serving, stopped when Mailroom stops).
 */
export function registerApplications(
  app: FastifyInstance,
  deps: AppDeps,
  ctx: WebContext,
): Pick<ApplicationService, 'list'> & {
  alertConditions: () => Promise<AppAlertCondition[]>;
  logTargets: AppObserver['logTargets'];
} {
  const vault = SecretVault.open(deps.config.dataDir, VAULT_FILES.webApps);
  const runtime = new AppRuntime();
  const service = new ApplicationService(ctx, vault, runtime);
  // PHP applications: their host's pool runs as the app's user; their variables reach PHP.
  ctx.appPhp = {
    user: async (name) => {
      const r = (await ensureAppUser(name)).runAs;
      return r ? { user: r.user, uid: r.uid, gid: r.gid } : null;
    },
    env: (sealed) => service.openEnv(sealed),
  };
  if (!deps.jobs) throw new Error('web applications need the job runner');
  const life = new AppLifecycle(service);
  const deploys = new DeployJobs(service, life, deps.jobs);
  registerApplicationRoutes(app, service, life, deploys);
  const auto = new AutoDeploy(service, deploys, databaseCounter(deps.database.db));
  registerAutoDeployRoutes(app, auto);
  const observer = new AppObserver(service);
  registerAppMetricsRoutes(app, observer);
  app.addHook('onReady', async () => {
    void life.resumeAll((msg, err) => app.log.warn({ err }, msg));
  });
  // Health checks of the running releases (each app at its own Health Check Interval).
  const phpHealth = new PhpHealthWatch(service);
  const health = setInterval(() => {
    void life.checkHealth().catch((err: unknown) => app.log.warn({ err }, 'web apps: health check failed'));
    void phpHealth
      .check()
      .catch((err: unknown) => app.log.warn({ err }, 'web apps: PHP health check failed'));
  }, HEALTH_TICK_MS);
  health.unref();
  // The scaling rule (app-scaling.service.ts): requests per instance per minute from the access-log roll-up.
  const scaler = new AppScaler(life, async (windowMinutes) => {
    await rollUpAccessLog(deps).catch(() => undefined);
    const since = Math.floor(Date.now() / 60_000) - (windowMinutes - 1);
    const figures = await figuresSince(deps.database.db, since);
    return new Map([...figures].map(([domain, f]) => [domain, f.requests / windowMinutes]));
  });
  const scaling = setInterval(
    () => {
      void scaler.tick().catch((err: unknown) => app.log.warn({ err }, 'web apps: scaling check failed'));
    },
    (deps.config.web.scaleTickSeconds ?? 30) * 1000,
  );
  scaling.unref();
  // Auto deploy's poll of the remotes (git ls-remote), one app after the other.
  let polling = false;
  const poll = setInterval(() => {
    if (polling) return;
    polling = true;
    void auto
      .pollAll((name, err) => app.log.warn({ err }, `web apps: auto deploy of ${name} failed`))
      .catch((err: unknown) => app.log.warn({ err }, 'web apps: auto deploy poll failed'))
      .finally(() => (polling = false));
  }, AUTO_DEPLOY_TICK_MS);
  poll.unref();
  // The Monitoring Endpoints of the apps running here, each every scrape interval.
  const scrape = setInterval(
    () => {
      void observer.scrapeDue().catch((err: unknown) => app.log.warn({ err }, 'web apps: scrape failed'));
    },
    Math.min(5000, scrapeIntervalMs()),
  );
  scrape.unref();
  app.addHook('onClose', async () => {
    clearInterval(health);
    clearInterval(poll);
    clearInterval(scrape);
    clearInterval(scaling);
    await runtime.closeAll();
  });
  return {
    list: (q) => service.list(q),
    alertConditions: () => life.alertConditions(),
    logTargets: () => observer.logTargets(),
  };
}

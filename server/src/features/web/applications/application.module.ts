import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { ensureAppUser } from '../../../host/app-process.ts';
import { SecretVault, VAULT_FILES } from '../../../security/secret-vault.ts';
import type { WebContext } from '../stack/web-context.ts';
import { registerApplicationRoutes } from './application.routes.ts';
import { ApplicationService } from './application.service.ts';
import { type AppAlertCondition, AppLifecycle } from './app-lifecycle.service.ts';
import { AppRuntime } from './app-runtime.ts';
import { DeployJobs } from './deploy.job.ts';
import { PhpHealthWatch } from './php-release.service.ts';

/** How often the health checks look for an app whose interval has passed. */
export const HEALTH_TICK_MS = 1000;

/**
 * Web applications (issue 20): routes, the app processes Mailroom supervises (started again at
 * start-up for every application that was serving, stopped when Mailroom stops).
 */
export function registerApplications(
  app: FastifyInstance,
  deps: AppDeps,
  ctx: WebContext,
): Pick<ApplicationService, 'list'> & { alertConditions: () => Promise<AppAlertCondition[]> } {
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
  app.addHook('onClose', async () => {
    clearInterval(health);
    await runtime.closeAll();
  });
  return { list: (q) => service.list(q), alertConditions: () => life.alertConditions() };
}

import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { SecretVault, VAULT_FILES } from '../../../security/secret-vault.ts';
import type { WebContext } from '../stack/web-context.ts';
import { registerApplicationRoutes } from './application.routes.ts';
import { ApplicationService } from './application.service.ts';
import { AppRuntime } from './app-runtime.ts';
import { DeployJobs } from './deploy.job.ts';

/**
 * Web applications (issue 20): routes, the app processes Mailroom supervises (started again at
 * start-up for every application that was serving, stopped when Mailroom stops).
 */
export function registerApplications(
  app: FastifyInstance,
  deps: AppDeps,
  ctx: WebContext,
): ApplicationService {
  const vault = SecretVault.open(deps.config.dataDir, VAULT_FILES.webApps);
  const runtime = new AppRuntime();
  const service = new ApplicationService(ctx, vault, runtime);
  if (!deps.jobs) throw new Error('web applications need the job runner');
  const deploys = new DeployJobs(service, deps.jobs);
  registerApplicationRoutes(app, service, deploys);
  app.addHook('onReady', async () => {
    void service.resumeAll((msg, err) => app.log.warn({ err }, msg));
  });
  app.addHook('onClose', async () => runtime.closeAll());
  return service;
}

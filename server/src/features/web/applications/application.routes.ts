import { appMessages, webAppRoutes } from '@mailroom/contract/web/applications';
import type { FastifyInstance } from 'fastify';
import { sendPage } from '../../../http/list-headers.ts';
import { registerRoute } from '../../../http/register-route.ts';
import type { ApplicationService } from './application.service.ts';
import type { AppLifecycle } from './app-lifecycle.service.ts';
import type { DeployJobs } from './deploy.job.ts';

/** HTTP only: request -> service -> answer. */
export function registerApplicationRoutes(
  app: FastifyInstance,
  apps: ApplicationService,
  life: AppLifecycle,
  deploys: DeployJobs,
): void {
  const r = webAppRoutes;
  const saved = (
    application: Awaited<ReturnType<ApplicationService['get']>>,
    message: string = appMessages.saved,
  ) => ({
    success: true as const,
    message,
    application,
  });
  registerRoute(app, r.list, async ({ query, reply }) => sendPage(reply, await apps.list(query)));
  registerRoute(app, r.capabilities, async () => apps.capabilities());
  registerRoute(app, r.get, async ({ params }) => apps.get(params.name));
  registerRoute(app, r.create, async ({ body, request }) => {
    request.auditTarget = body.name;
    return saved(await apps.create(body));
  });
  registerRoute(app, r.update, async ({ params, body }) => saved(await apps.update(params.name, body)));
  registerRoute(app, r.remove, async ({ params, body }) => ({
    success: true as const,
    ...(await apps.remove(params.name, body.keepFiles)),
  }));
  registerRoute(app, r.deploy, async ({ params, body, request, reply }) => {
    const out = await deploys.deploy(params.name, body.ref, request.admin?.email ?? null);
    reply.code(202);
    return out;
  });
  registerRoute(app, r.rollback, async ({ params, body, request, reply }) => {
    const out = await deploys.rollback(params.name, body.releaseId, request.admin?.email ?? null);
    reply.code(202);
    return out;
  });
  registerRoute(app, r.start, async ({ params }) =>
    saved(await life.start(params.name), appMessages.started(params.name)),
  );
  registerRoute(app, r.stop, async ({ params }) =>
    saved(await life.stop(params.name), appMessages.stopped(params.name)),
  );
  registerRoute(app, r.restart, async ({ params }) =>
    saved(await life.restart(params.name), appMessages.restarted(params.name)),
  );
  registerRoute(app, r.toggle, async ({ params }) => {
    const a = await life.toggle(params.name);
    return saved(
      a,
      a.status === 'active' ? appMessages.started(params.name) : appMessages.stopped(params.name),
    );
  });
  registerRoute(app, r.releases, async ({ params }) => apps.releases(params.name));
  registerRoute(app, r.release, async ({ params }) => apps.release(params.name, params.id));
  registerRoute(app, r.deployLog, async ({ params, query }) => apps.deployLog(params.name, query));
}

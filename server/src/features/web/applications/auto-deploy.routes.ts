import { appAutoDeployRoutes, WEBHOOK_MAX_BODY } from '@mailroom/contract/web/app-auto-deploy';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../../http/register-route.ts';
import type { AutoDeploy } from './auto-deploy.service.ts';

/** HTTP only: auto deploy's routes (the webhook keeps its raw body: the signature covers its bytes). */
export function registerAutoDeployRoutes(app: FastifyInstance, auto: AutoDeploy): void {
  const r = appAutoDeployRoutes;
  registerRoute(app, r.info, async ({ params }) => auto.info(params.name));
  registerRoute(app, r.rotateSecret, async ({ params, request }) => {
    const { replaced, ...answer } = await auto.rotateSecret(params.name);
    request.auditDetails = { replaced };
    return answer;
  });
  registerRoute(app, r.check, async ({ params, reply }) => {
    const out = await auto.checkNow(params.name);
    if (out.outcome === 'deploying') reply.code(202);
    return out;
  });
  void app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser(
      ['application/json', 'application/x-www-form-urlencoded'],
      { parseAs: 'string', bodyLimit: WEBHOOK_MAX_BODY },
      (_req, body, done) => done(null, body),
    );
    registerRoute(scope, r.deliver, async ({ params, request, reply }) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const out = await auto.deliver(params.name, raw, request.headers, request.ip);
      if (out.accepted) reply.code(202);
      return out.outcome;
    });
  });
}

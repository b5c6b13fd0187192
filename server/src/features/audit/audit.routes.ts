import { auditRoutes } from '@mailroom/contract/audit';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import { auditActors, listAudit } from './audit.service.ts';

export function registerAudit(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, auditRoutes.list, async ({ query }) => listAudit(deps.database.db, query));
  registerRoute(app, auditRoutes.actors, async () => ({ actors: await auditActors(deps.database.db) }));
}

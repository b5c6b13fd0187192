import { auditRoutes } from '@mailroom/contract/audit';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import { listAudit } from '../../http/audit-log.repository.ts';
import { accountEmails } from '../../http/sign-in-account.repository.ts';

export function registerAudit(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, auditRoutes.list, async ({ query }) => listAudit(deps.database.db, query));
  registerRoute(app, auditRoutes.actors, async () => ({ actors: await accountEmails(deps.database.db) }));
}

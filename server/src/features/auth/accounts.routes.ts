import { accountsRoutes } from '@mailroom/contract/accounts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { forbidden } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { addAdmin, listAdmins, removeAdmin } from './admin.service.ts';

/** Console accounts: list, add, remove (the same rules as `mailroom admin …`). */
export function registerAccounts(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps.database;
  registerRoute(app, accountsRoutes.list, async () =>
    (await listAdmins(db)).map((a) => ({ email: a.email, createdAt: a.created_at })),
  );
  registerRoute(app, accountsRoutes.create, async ({ body, request }) => {
    const email = body.email.trim().toLowerCase();
    request.auditTarget = email;
    await addAdmin(db, email, body.password);
    const row = (await listAdmins(db)).find((a) => a.email === email);
    return { email, createdAt: row?.created_at ?? new Date().toISOString() };
  });
  registerRoute(app, accountsRoutes.remove, async ({ params, request }) => {
    const email = params.email.trim().toLowerCase();
    if (request.admin?.email === email) throw forbidden('You cannot remove your own account.');
    await removeAdmin(db, email);
    return { success: true as const };
  });
}

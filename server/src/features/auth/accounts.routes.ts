import { accountsRoutes } from '@mailroom/contract/accounts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { forbidden } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { type AdminListEntry, addAdmin, listAdmins, removeAdmin, updateAdmin } from './admin.service.ts';

const toAccount = (a: AdminListEntry) => ({
  email: a.email,
  createdAt: a.created_at,
  role: a.role,
  domains: a.domains,
});

/** Console accounts: list, add, remove (the same rules as `mailroom admin …`). */
export function registerAccounts(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps.database;
  registerRoute(app, accountsRoutes.list, async () => (await listAdmins(db)).map(toAccount));
  registerRoute(app, accountsRoutes.create, async ({ body, request }) => {
    const email = body.email.trim().toLowerCase();
    request.auditTarget = email;
    const role = body.role ?? 'admin';
    const domains = role === 'admin' ? [] : (body.domains ?? []);
    request.auditDetails = { role, ...(domains.length ? { domains } : {}) };
    await addAdmin(db, email, body.password, { role, domains });
    const row = (await listAdmins(db)).find((a) => a.email === email);
    if (!row) throw new Error(`account ${email} was not saved`);
    return toAccount(row);
  });
  registerRoute(app, accountsRoutes.update, async ({ params, body, request }) => {
    const email = params.email.trim().toLowerCase();
    request.auditTarget = email;
    const domains = body.role === 'admin' ? [] : body.domains;
    request.auditDetails = { role: body.role, domains, ...(body.password ? { password: 'changed' } : {}) };
    if (request.admin?.email === email && body.role !== 'admin')
      throw forbidden('You cannot change your own role.');
    return toAccount(await updateAdmin(db, email, { role: body.role, domains, password: body.password }));
  });
  registerRoute(app, accountsRoutes.remove, async ({ params, request }) => {
    const email = params.email.trim().toLowerCase();
    if (request.admin?.email === email) throw forbidden('You cannot remove your own account.');
    await removeAdmin(db, email);
    return { success: true as const };
  });
}

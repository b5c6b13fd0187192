import { appPasswordRoutes, mailboxAppPasswordRoutes } from '@mailroom/contract/app-passwords';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { forbidden, unauthorized } from '../../http/errors.ts';
import { requireRecentReauth } from '../../http/reauth.ts';
import { registerRoute } from '../../http/register-route.ts';
import {
  createAppPassword,
  listAppPasswords,
  mailboxAppPasswords,
  mailboxHasMfa,
  revokeAppPassword,
  revokeMailboxAppPassword,
} from './app-passwords.service.ts';

function mailboxOf(request: FastifyRequest): number {
  if (!request.admin) throw unauthorized();
  if (request.admin.mailboxId === null) throw forbidden('App passwords belong to mailbox users.');
  return request.admin.mailboxId;
}

/**
 * /api/account/app-passwords: a mailbox user's passwords for IMAP, POP3 and SMTP; and
 * /api/mail/users/:email/app-passwords: the same list and revocation for its administrators.
 */
export function registerAppPasswords(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps.database;
  const now = () => (deps.clock ? deps.clock() : Date.now());

  registerRoute(app, appPasswordRoutes.list, async ({ request }) => {
    const mailboxId = request.admin?.mailboxId ?? null;
    if (mailboxId === null) return { available: false, mfaEnabled: false, items: [] };
    return {
      available: true,
      mfaEnabled: await mailboxHasMfa(db, mailboxId),
      items: await listAppPasswords(db, mailboxId),
    };
  });

  /** Like the other security changes: the password or a code proved within the last minutes. */
  async function requireRecent(request: FastifyRequest): Promise<void> {
    await requireRecentReauth(db, request.admin!.sessionId, now());
  }

  registerRoute(app, appPasswordRoutes.create, async ({ body, request }) => {
    mailboxOf(request);
    await requireRecent(request);
    const created = await createAppPassword(db, mailboxOf(request), body.name, now());
    request.auditTarget = body.name;
    return created;
  });

  registerRoute(app, appPasswordRoutes.revoke, async ({ params, request }) => {
    await revokeAppPassword(db, mailboxOf(request), params.id);
    return { success: true as const, message: 'App password revoked.' };
  });

  // Administrators (domain administrators in their domains: checked on params.email by the guard).
  registerRoute(app, mailboxAppPasswordRoutes.list, async ({ params }) =>
    mailboxAppPasswords(db, params.email),
  );

  registerRoute(app, mailboxAppPasswordRoutes.revoke, async ({ params, request }) => {
    request.auditTarget = params.email;
    request.auditDetails = { appPassword: params.id };
    await revokeMailboxAppPassword(db, params.email, params.id);
    return { success: true as const, message: 'App password revoked.' };
  });
}

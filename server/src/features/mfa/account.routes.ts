import { accountRoutes, REAUTH_WINDOW_MINUTES } from '@mailroom/contract/mfa';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { endAccountAccess } from '../../http/account-access.repository.ts';
import { hashPassword, verifyPassword } from '../../lib/password-hash.ts';
import { fieldError } from '../../http/errors.ts';
import {
  activeFactorCount,
  backupCodeCounts,
  consumeBackupCode,
  generateBackupCodes,
  removeDevice,
  setPrimary,
  startTotp,
  confirmTotp,
  toDevice,
  verifyTotp,
} from './factors.service.ts';
import { countFailure, refuseIfLocked } from './lockout.ts';
import { iso, type MfaContext } from './mfa-context.ts';
import { effectivePolicy } from './policy.service.ts';
import { addRecoveryEmail, verifyRecoveryEmail } from './recovery-methods.service.ts';
import { registerCredential, registrationOptions } from './webauthn.service.ts';
import { accountPasswordHash } from '../../http/sign-in-account.ts';

const REAUTH_MS = REAUTH_WINDOW_MINUTES * 60_000;

function who(request: FastifyRequest) {
  if (!request.admin) throw unauthorized();
  return { id: request.admin.adminId, email: request.admin.email, sessionId: request.admin.sessionId };
}

async function reauthAt(ctx: MfaContext, sessionId: number): Promise<number | null> {
  const r = await ctx.db
    .selectFrom('sessions')
    .select('reauth_at')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return r?.reauth_at == null ? null : Number(r.reauth_at);
}

/** Security changes need the password or a code proved within the last few minutes. */
async function requireRecent(ctx: MfaContext, sessionId: number): Promise<void> {
  const at = await reauthAt(ctx, sessionId);
  if (at === null || at + REAUTH_MS < ctx.now())
    throw forbidden('Confirm your password or a code first (re-authentication required).');
}

/**
 * Checks the signed-in account's password, throttled like sign-in (the same buckets: a guess here
 * counts as a failed sign-in of the account from that address). After the free guesses even the
 * right password waits: 429 with Retry-After. A wrong one answers 400 on `field`.
 */
async function checkOwnPassword(
  ctx: MfaContext,
  me: { id: number; email: string },
  ip: string | null,
  password: string,
  field: string,
  message: string,
): Promise<void> {
  const reserved = await ctx.guesses.reserve(me.email, ip);
  if (reserved.ids === undefined)
    throw tooManyRequests(reserved.wait, `Too many wrong passwords. Try again in ${reserved.wait} seconds.`);
  if (!(await verifyPassword(await accountPasswordHash(ctx.db, me.id), password)))
    throw fieldError(field, message);
  await ctx.guesses.success(me.email, ip, reserved.ids);
}

/** The signed-in account's own factors, password and re-authentication (/api/account/*). */
export function registerAccount(app: FastifyInstance, ctx: MfaContext): void {
  registerRoute(app, accountRoutes.mfa, async ({ request }) => {
    const me = who(request);
    const policy = await effectivePolicy(ctx.db, me.id);
    const devices = await ctx.db
      .selectFrom('mfa_devices')
      .selectAll()
      .where('admin_id', '=', me.id)
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
    const acct = await ctx.db
      .selectFrom('mfa_accounts')
      .select('enrol_required')
      .where('admin_id', '=', me.id)
      .executeTakeFirst();
    const at = await reauthAt(ctx, me.sessionId);
    const until = at === null ? null : at + REAUTH_MS;
    return {
      email: me.email,
      enrolRequired: devices.length === 0 && (policy.requireMfa || acct?.enrol_required === 1),
      devices: devices.map((d) => toDevice(d, me.email)),
      backupCodes: await backupCodeCounts(ctx.db, me.id, ctx.now()),
      backupCodesEnabled: policy.backupCodesEnabled,
      allowedMethods: policy.allowedMethods,
      reauthUntil: until !== null && until > ctx.now() ? iso(until) : null,
    };
  });

  registerRoute(app, accountRoutes.reauth, async ({ body, request }) => {
    const me = who(request);
    let ok = false;
    if (body.password !== undefined) {
      await checkOwnPassword(ctx, me, request.ip, body.password, 'password', 'The password is not correct.');
      ok = true;
    } else if (body.code !== undefined) {
      await refuseIfLocked(ctx, me.id);
      ok = (await verifyTotp(ctx, me.id, body.code)) || (await consumeBackupCode(ctx, me.id, body.code));
      if (!ok) {
        await countFailure(ctx, me.id, request.ip);
        throw fieldError('code', 'Invalid verification code.');
      }
    }
    const now = ctx.now();
    await ctx.db.updateTable('sessions').set({ reauth_at: now }).where('id', '=', me.sessionId).execute();
    return { success: true as const, reauthUntil: iso(now + REAUTH_MS) };
  });

  registerRoute(app, accountRoutes.totpStart, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.allowedMethods.includes('TOTP'))
      throw forbidden('The MFA policy does not allow authenticator apps.');
    return startTotp(ctx, me, body.deviceName);
  });

  registerRoute(app, accountRoutes.totpConfirm, async ({ params, body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    request.auditTarget = String(params.id);
    return confirmTotp(ctx, me, params.id, body.code, request.ip);
  });

  registerRoute(app, accountRoutes.webauthnRegisterOptions, async ({ request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.allowedMethods.includes('Hardware Token'))
      throw forbidden('The MFA policy does not allow security keys.');
    return (await registrationOptions(ctx, me)) as unknown as Record<string, unknown>;
  });

  registerRoute(app, accountRoutes.webauthnRegister, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    return registerCredential(ctx, me, body.deviceName, body.credential, request.ip);
  });

  registerRoute(app, accountRoutes.setPrimary, async ({ params, request }) => {
    const me = who(request);
    await setPrimary(ctx, me.id, params.id);
    return { success: true as const };
  });

  registerRoute(app, accountRoutes.removeDevice, async ({ params, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    await removeDevice(ctx, me, params.id, request.ip);
    return { success: true as const, message: 'Device removed. Every session of the account has ended.' };
  });

  registerRoute(app, accountRoutes.backupCodes, async ({ request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    const policy = await effectivePolicy(ctx.db, me.id);
    if (!policy.backupCodesEnabled) throw forbidden('The MFA policy does not allow backup codes.');
    if ((await activeFactorCount(ctx.db, me.id)) === 0)
      throw forbidden('Enrol an authenticator app or a security key before generating backup codes.');
    return generateBackupCodes(ctx, me.id, policy.backupCodesCount);
  });

  registerRoute(app, accountRoutes.addRecoveryEmail, async ({ body, request }) => {
    const me = who(request);
    await requireRecent(ctx, me.sessionId);
    request.auditTarget = body.email;
    return addRecoveryEmail(ctx, me, body.email);
  });

  registerRoute(app, accountRoutes.verifyRecoveryEmail, async ({ params, body, request }) => {
    const me = who(request);
    return verifyRecoveryEmail(ctx, me, params.id, body.code);
  });

  registerRoute(app, accountRoutes.password, async ({ body, request }) => {
    const me = who(request);
    await checkOwnPassword(
      ctx,
      me,
      request.ip,
      body.currentPassword,
      'currentPassword',
      'The current password is not correct.',
    );
    if (request.admin?.mailboxId != null) {
      // A mailbox user's password is its mailbox's: changed by the mail feature (Dovecot reads it),
      // which ends the account's sessions, pending sign-ins, remembered browsers and app passwords.
      await ctx.changeMailboxPassword(me.email, body.newPassword);
      return { success: true as const, message: 'Password changed. Every session of the account has ended.' };
    }
    const hash = await hashPassword(body.newPassword);
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admins')
        .set({ password_hash: hash, updated_at: iso(ctx.now()) })
        .where('id', '=', me.id)
        .execute();
      await endAccountAccess(trx, [me.id]);
    });
    return { success: true as const, message: 'Password changed. Every session of the account has ended.' };
  });
}

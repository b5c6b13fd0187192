import { endAccountAccess } from '../../../http/account-access.repository.ts';
import { fieldError, tooManyRequests } from '../../../http/errors.ts';
import { REAUTH_MS, requireRecentReauth } from '../../../http/reauth.ts';
import { sessionReauthAt, setSessionReauthAt } from '../../../http/session.repository.ts';
import { accountPasswordHash, setAccountPasswordHash } from '../../../http/sign-in-account.repository.ts';
import { hashPassword, verifyPassword } from '../../../lib/password-hash.ts';
import { backupCodeCounts, consumeBackupCode, verifyTotp } from '../factors/factors.service.ts';
import { countFailure, refuseIfLocked } from '../sign-in/lockout.service.ts';
import { enrolRequired } from './mfa-account.repository.ts';
import { activeDevices, toDevice } from '../factors/mfa-device.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import { effectivePolicy } from '../policy/policy.service.ts';

/** The signed-in account's own MFA rules: re-authentication, its password, its overview. */

export interface Me {
  id: number;
  email: string;
  sessionId: number;
}

/** Security changes need the password or a code proved within the last few minutes. */
export const requireRecent = (ctx: MfaContext, sessionId: number): Promise<void> =>
  requireRecentReauth(ctx.db, sessionId, ctx.now());

/**
 * Checks the signed-in account's password, throttled like sign-in (the same buckets: a guess here
 * counts as a failed sign-in of the account from that address). After the free guesses even the
 * right password waits: 429 with Retry-After. A wrong one answers 400 on `field`.
 */
export async function checkOwnPassword(
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

/** /api/account/mfa: the account's factors, backup codes, policy and re-authentication window. */
export async function accountMfa(ctx: MfaContext, me: Me) {
  const policy = await effectivePolicy(ctx.db, me.id);
  const devices = await activeDevices(ctx.db, me.id);
  const mustEnrol = await enrolRequired(ctx.db, me.id);
  const at = await sessionReauthAt(ctx.db, me.sessionId);
  const until = at === null ? null : at + REAUTH_MS;
  return {
    email: me.email,
    enrolRequired: devices.length === 0 && (policy.requireMfa || mustEnrol),
    devices: devices.map((d) => toDevice(d, me.email)),
    backupCodes: await backupCodeCounts(ctx.db, me.id, ctx.now()),
    backupCodesEnabled: policy.backupCodesEnabled,
    allowedMethods: policy.allowedMethods,
    reauthUntil: until !== null && until > ctx.now() ? iso(until) : null,
  };
}

/** Proves the password or a code (TOTP or backup code) and opens the re-authentication window. */
export async function reauthenticate(
  ctx: MfaContext,
  me: Me,
  ip: string | null,
  proof: { password?: string; code?: string },
): Promise<{ success: true; reauthUntil: string }> {
  if (proof.password !== undefined) {
    await checkOwnPassword(ctx, me, ip, proof.password, 'password', 'The password is not correct.');
  } else if (proof.code !== undefined) {
    await refuseIfLocked(ctx, me.id);
    const ok =
      (await verifyTotp(ctx, me.id, proof.code)) || (await consumeBackupCode(ctx, me.id, proof.code));
    if (!ok) {
      await countFailure(ctx, me.id, ip);
      throw fieldError('code', 'Invalid verification code.');
    }
  }
  const now = ctx.now();
  await setSessionReauthAt(ctx.db, me.sessionId, now);
  return { success: true as const, reauthUntil: iso(now + REAUTH_MS) };
}

/**
 * Changes the account's own password after checking the current one; every session of the account
 * ends. A mailbox user's password is its mailbox's: changed by the mail feature (Dovecot reads it),
 * which ends the account's sessions, pending sign-ins, remembered browsers and app passwords.
 */
export async function changeOwnPassword(
  ctx: MfaContext,
  me: Me,
  ip: string | null,
  mailboxId: number | null,
  current: string,
  next: string,
): Promise<void> {
  await checkOwnPassword(ctx, me, ip, current, 'currentPassword', 'The current password is not correct.');
  if (mailboxId != null) {
    await ctx.changeMailboxPassword(me.email, next);
    return;
  }
  const hash = await hashPassword(next);
  await ctx.db.transaction().execute(async (trx) => {
    await setAccountPasswordHash(trx, me.id, hash, iso(ctx.now()));
    await endAccountAccess(trx, [me.id]);
  });
}

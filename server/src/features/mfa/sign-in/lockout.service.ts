import { MFA_LOCKOUT_MINUTES, MFA_MAX_FAILED_ATTEMPTS } from '@mailroom/contract/mfa';
import { tooManyRequests } from '../../../http/errors.ts';
import { deleteChallengesOf } from './challenge.repository.ts';
import {
  bumpFailures,
  clearFailures as clearFailureCount,
  ensureAccountRow,
  resetFailuresAtLimit,
} from '../account/mfa-account.repository.ts';
import { activeLockout as lockoutInForce, insertLockout } from './lockout.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';

/** The account's lockout still in force, if any. */
export async function activeLockout(ctx: MfaContext, adminId: number) {
  return lockoutInForce(ctx.db, adminId, iso(ctx.now()));
}
export async function refuseIfLocked(ctx: MfaContext, adminId: number): Promise<void> {
  const lock = await activeLockout(ctx, adminId);
  if (!lock) return;
  const wait = Math.max(1, Math.ceil((Date.parse(lock.expires_at) - ctx.now()) / 1000));
  throw tooManyRequests(
    wait,
    `Account locked after too many failed verification attempts. Try again in ${Math.ceil(wait / 60)} minutes or ask an administrator.`,
  );
}

/** Failures older than this (counted from the last one) are forgotten: the counter decays. */
export const FAILURE_DECAY_MS = MFA_LOCKOUT_MINUTES * 60_000;

/**
 * Counts one failed second-factor attempt; the one that reaches the limit locks the account.
 * The counter moves in one statement, so parallel guesses cannot slip past the limit. It decays:
 * a failure more than the lockout window after the previous one starts again from one (a slip
 * last month does not bring today's owner closer to a lockout).
 */
export async function countFailure(ctx: MfaContext, adminId: number, ip: string | null): Promise<boolean> {
  await ensureAccountRow(ctx.db, adminId);
  const now = ctx.now();
  const failed = await bumpFailures(ctx.db, adminId, now, FAILURE_DECAY_MS);
  if (failed < MFA_MAX_FAILED_ATTEMPTS) return false;
  await ctx.db.transaction().execute(async (trx) => {
    // false: a parallel failure already locked it
    if (!(await resetFailuresAtLimit(trx, adminId, MFA_MAX_FAILED_ATTEMPTS))) return;
    await insertLockout(trx, {
      admin_id: adminId,
      lockout_type: 'Failed MFA Attempts',
      reason: `${MFA_MAX_FAILED_ATTEMPTS} failed second-factor attempts`,
      locked_at: iso(now),
      expires_at: iso(now + MFA_LOCKOUT_MINUTES * 60_000),
      attempts: Math.max(MFA_MAX_FAILED_ATTEMPTS, failed),
      ip,
    });
    await deleteChallengesOf(trx, adminId);
  });
  return true;
}

export async function clearFailures(ctx: MfaContext, adminId: number): Promise<void> {
  await clearFailureCount(ctx.db, adminId);
}

import { MFA_LOCKOUT_MINUTES, MFA_MAX_FAILED_ATTEMPTS } from '@mailroom/contract/mfa';
import { sql } from 'kysely';
import { tooManyRequests } from '../../http/errors.ts';
import { iso, type MfaContext } from './mfa-context.ts';

/** The account's lockout still in force, if any. */
export async function activeLockout(ctx: MfaContext, adminId: number) {
  return ctx.db
    .selectFrom('mfa_lockouts')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('unlocked_at', 'is', null)
    .where('expires_at', '>', iso(ctx.now()))
    .orderBy('id', 'desc')
    .executeTakeFirst();
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

async function ensureAccountRow(ctx: MfaContext, adminId: number): Promise<void> {
  await ctx.db
    .insertInto('mfa_accounts')
    .values({ admin_id: adminId })
    .onConflict((oc) => oc.column('admin_id').doNothing())
    .execute();
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
  await ensureAccountRow(ctx, adminId);
  const now = ctx.now();
  const row = await ctx.db
    .updateTable('mfa_accounts')
    .set({
      failed_attempts: sql<number>`case when failed_at is not null and failed_at > ${now - FAILURE_DECAY_MS}
        then failed_attempts + 1 else 1 end`,
      failed_at: now,
    })
    .where('admin_id', '=', adminId)
    .returning('failed_attempts')
    .executeTakeFirstOrThrow();
  if (row.failed_attempts < MFA_MAX_FAILED_ATTEMPTS) return false;
  await ctx.db.transaction().execute(async (trx) => {
    const reset = await trx
      .updateTable('mfa_accounts')
      .set({ failed_attempts: 0 })
      .where('admin_id', '=', adminId)
      .where('failed_attempts', '>=', MFA_MAX_FAILED_ATTEMPTS)
      .executeTakeFirst();
    if (Number(reset.numUpdatedRows) === 0) return; // a parallel failure already locked it
    await trx
      .insertInto('mfa_lockouts')
      .values({
        admin_id: adminId,
        lockout_type: 'Failed MFA Attempts',
        reason: `${MFA_MAX_FAILED_ATTEMPTS} failed second-factor attempts`,
        locked_at: iso(now),
        expires_at: iso(now + MFA_LOCKOUT_MINUTES * 60_000),
        attempts: Math.max(MFA_MAX_FAILED_ATTEMPTS, row.failed_attempts),
        ip,
      })
      .execute();
    await trx.deleteFrom('mfa_challenges').where('admin_id', '=', adminId).execute();
  });
  return true;
}

export async function clearFailures(ctx: MfaContext, adminId: number): Promise<void> {
  await ctx.db
    .updateTable('mfa_accounts')
    .set({ failed_attempts: 0 })
    .where('admin_id', '=', adminId)
    .execute();
}

export { ensureAccountRow };

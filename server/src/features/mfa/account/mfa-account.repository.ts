import { sql, type Kysely, type Selectable } from 'kysely';
import type { MfaAccountTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of an account's MFA state row (`mfa_accounts`); its devices: mfa-device.repository.ts. */

type Db = Kysely<Database>;

/** Whether an administrator marked the account as having to enrol at its next sign-in. */
export async function enrolRequired(db: Db, adminId: number): Promise<boolean> {
  const acct = await db
    .selectFrom('mfa_accounts')
    .select('enrol_required')
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  return acct?.enrol_required === 1;
}

/** The account's MFA row exists (counters start at zero). */
export async function ensureAccountRow(db: Db, adminId: number): Promise<void> {
  await db
    .insertInto('mfa_accounts')
    .values({ admin_id: adminId })
    .onConflict((oc) => oc.column('admin_id').doNothing())
    .execute();
}

/** Sets (creating the row if needed) whether the account must enrol at its next sign-in. */
export async function setEnrolRequired(db: Db, adminId: number, required: boolean): Promise<void> {
  const v = required ? 1 : 0;
  await db
    .insertInto('mfa_accounts')
    .values({ admin_id: adminId, enrol_required: v })
    .onConflict((oc) => oc.column('admin_id').doUpdateSet({ enrol_required: v }))
    .execute();
}

/**
 * Claims the account's e-mail code slot in one statement (compare-and-set): false when a code
 * went out less than `resendMs` ago.
 */
export async function claimEmailCodeSlot(db: Db, adminId: number, now: number, resendMs: number) {
  const claimed = await db
    .updateTable('mfa_accounts')
    .set({ email_code_sent_at: now })
    .where('admin_id', '=', adminId)
    .where((eb) =>
      eb.or([eb('email_code_sent_at', 'is', null), eb('email_code_sent_at', '<=', now - resendMs)]),
    )
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) !== 0;
}

/** Gives back the slot claimed at `now` (nothing was mailed). */
export async function releaseEmailCodeSlot(db: Db, adminId: number, now: number): Promise<void> {
  await db
    .updateTable('mfa_accounts')
    .set({ email_code_sent_at: null })
    .where('admin_id', '=', adminId)
    .where('email_code_sent_at', '=', now)
    .execute();
}

/**
 * Counts one failure in one statement; a failure more than `decayMs` after the previous one
 * starts again from one. Answers the new count.
 */
export async function bumpFailures(db: Db, adminId: number, now: number, decayMs: number): Promise<number> {
  const row = await db
    .updateTable('mfa_accounts')
    .set({
      failed_attempts: sql<number>`case when failed_at is not null and failed_at > ${now - decayMs}
        then failed_attempts + 1 else 1 end`,
      failed_at: now,
    })
    .where('admin_id', '=', adminId)
    .returning('failed_attempts')
    .executeTakeFirstOrThrow();
  return row.failed_attempts;
}

/** Resets a counter that reached `limit`; false when a parallel failure already did. */
export async function resetFailuresAtLimit(db: Db, adminId: number, limit: number): Promise<boolean> {
  const reset = await db
    .updateTable('mfa_accounts')
    .set({ failed_attempts: 0 })
    .where('admin_id', '=', adminId)
    .where('failed_attempts', '>=', limit)
    .executeTakeFirst();
  return Number(reset.numUpdatedRows) !== 0;
}

export async function clearFailures(db: Db, adminId: number): Promise<void> {
  await db.updateTable('mfa_accounts').set({ failed_attempts: 0 }).where('admin_id', '=', adminId).execute();
}

export async function setLastMfaLogin(db: Db, adminId: number, at: string): Promise<void> {
  await db.updateTable('mfa_accounts').set({ last_mfa_login: at }).where('admin_id', '=', adminId).execute();
}

/** The MFA rows of these accounts (null: every account). */
export async function mfaAccountsOf(db: Db, ids: number[] | null): Promise<Selectable<MfaAccountTable>[]> {
  return db
    .selectFrom('mfa_accounts')
    .selectAll()
    .$if(ids !== null, (q) => q.where('admin_id', 'in', ids ?? []))
    .execute();
}

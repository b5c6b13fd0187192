import type { Insertable, Kysely } from 'kysely';
import type { MfaLockoutTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_lockouts` (an account locked after too many failed second-factor attempts). */

type Db = Kysely<Database>;

/** The account's lockout still in force at `now` (ISO), if any. */
export async function activeLockout(db: Db, adminId: number, now: string) {
  return db
    .selectFrom('mfa_lockouts')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('unlocked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function insertLockout(db: Db, row: Insertable<MfaLockoutTable>): Promise<void> {
  await db.insertInto('mfa_lockouts').values(row).execute();
}

/** The accounts (among these, or all when null) locked at `now` (ISO). */
export async function lockedAccounts(db: Db, ids: number[] | null, now: string): Promise<Set<number>> {
  const rows = await db
    .selectFrom('mfa_lockouts')
    .select('admin_id')
    .where('unlocked_at', 'is', null)
    .where('expires_at', '>', now)
    .$if(ids !== null, (q) => q.where('admin_id', 'in', ids ?? []))
    .execute();
  return new Set(rows.map((r) => r.admin_id));
}

/** Every lockout, newest first, with its account's address. */
export async function allLockouts(db: Db) {
  return db
    .selectFrom('mfa_lockouts')
    .innerJoin('admins', 'admins.id', 'mfa_lockouts.admin_id')
    .selectAll('mfa_lockouts')
    .select('admins.email')
    .orderBy('mfa_lockouts.id', 'desc')
    .execute();
}

export async function lockoutById(db: Db, id: number) {
  return db
    .selectFrom('mfa_lockouts')
    .innerJoin('admins', 'admins.id', 'mfa_lockouts.admin_id')
    .select(['mfa_lockouts.unlocked_at', 'mfa_lockouts.expires_at', 'mfa_lockouts.admin_id', 'admins.email'])
    .where('mfa_lockouts.id', '=', id)
    .executeTakeFirst();
}

export async function unlockById(db: Db, id: number, at: string, by: string): Promise<void> {
  await db
    .updateTable('mfa_lockouts')
    .set({ unlocked_at: at, unlocked_by: by })
    .where('id', '=', id)
    .execute();
}

/** Lifts every lockout of the account still in place. */
export async function unlockAccount(db: Db, adminId: number, at: string, by: string): Promise<void> {
  await db
    .updateTable('mfa_lockouts')
    .set({ unlocked_at: at, unlocked_by: by })
    .where('admin_id', '=', adminId)
    .where('unlocked_at', 'is', null)
    .execute();
}

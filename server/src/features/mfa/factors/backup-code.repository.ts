import type { Insertable, Kysely } from 'kysely';
import type { MfaBackupCodeTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_backup_codes` (only keyed hashes of the codes are kept). */

type Db = Kysely<Database>;

/** Replaces the account's codes with these (the previous set stops working). */
export async function replaceBackupCodes(
  db: Db,
  adminId: number,
  rows: Insertable<MfaBackupCodeTable>[],
): Promise<void> {
  await deleteBackupCodes(db, adminId);
  await db.insertInto('mfa_backup_codes').values(rows).execute();
}

export async function deleteBackupCodes(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('mfa_backup_codes').where('admin_id', '=', adminId).execute();
}

/** One statement marks the code used only if it was unused and unexpired. */
export async function useBackupCode(
  db: Db,
  adminId: number,
  codeHash: string,
  now: string,
): Promise<boolean> {
  const res = await db
    .updateTable('mfa_backup_codes')
    .set({ used: 1, used_at: now })
    .where('admin_id', '=', adminId)
    .where('code_hash', '=', codeHash)
    .where('used', '=', 0)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The use state of these accounts' codes (null: every account). */
export async function backupCodeStates(db: Db, ids: number[] | null) {
  return db
    .selectFrom('mfa_backup_codes')
    .select(['admin_id', 'used', 'expires_at'])
    .$if(ids !== null, (q) => q.where('admin_id', 'in', ids ?? []))
    .execute();
}

/** How many codes were generated and used, over every account. */
export async function backupCodeTotals(db: Db): Promise<{ generated: number; used: number }> {
  const r = await db
    .selectFrom('mfa_backup_codes')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('used').as('used')])
    .executeTakeFirst();
  return { generated: Number(r?.n ?? 0), used: Number(r?.used ?? 0) };
}

/** The newest 500 codes with their accounts' addresses (the admin's Backup codes tab). */
export async function latestBackupCodes(db: Db) {
  return db
    .selectFrom('mfa_backup_codes')
    .innerJoin('admins', 'admins.id', 'mfa_backup_codes.admin_id')
    .selectAll('mfa_backup_codes')
    .select('admins.email')
    .orderBy('mfa_backup_codes.id', 'desc')
    .limit(500)
    .execute();
}

import type { RecoveryMethod } from '@mailroom/contract/mfa';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { MfaRecoveryMethodTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_recovery_methods` (an account's recovery addresses) and its contract mapping. */

type Db = Kysely<Database>;

export function toMethod(r: Selectable<MfaRecoveryMethodTable>, email: string): RecoveryMethod {
  return {
    id: r.id,
    userId: r.admin_id,
    userEmail: email,
    methodType: r.method_type as RecoveryMethod['methodType'],
    methodValue: r.method_value,
    status: r.verified === 1 ? 'active' : 'pending',
    createdAt: r.created_at,
    lastUsed: r.last_used,
    verified: r.verified === 1,
  };
}

/** The account's first verified recovery address, if any. */
export async function verifiedRecoveryAddress(db: Db, adminId: number): Promise<string | null> {
  const rec = await db
    .selectFrom('mfa_recovery_methods')
    .select('method_value')
    .where('admin_id', '=', adminId)
    .where('method_type', '=', 'Email')
    .where('verified', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
  return rec?.method_value ?? null;
}

export async function recoveryMethodIdByValue(db: Db, adminId: number, value: string) {
  const row = await db
    .selectFrom('mfa_recovery_methods')
    .select('id')
    .where('admin_id', '=', adminId)
    .where('method_value', '=', value)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertRecoveryMethod(db: Db, row: Insertable<MfaRecoveryMethodTable>): Promise<number> {
  return (await db.insertInto('mfa_recovery_methods').values(row).returning('id').executeTakeFirstOrThrow())
    .id;
}

export async function updateRecoveryMethod(
  db: Db,
  id: number,
  set: Updateable<MfaRecoveryMethodTable>,
): Promise<void> {
  await db.updateTable('mfa_recovery_methods').set(set).where('id', '=', id).execute();
}

export async function recoveryMethodById(db: Db, id: number) {
  return db.selectFrom('mfa_recovery_methods').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function recoveryMethodOf(db: Db, adminId: number, id: number) {
  return db
    .selectFrom('mfa_recovery_methods')
    .selectAll()
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
}

/** One statement: the code works once and only before it expires. */
export async function verifyRecoveryCode(
  db: Db,
  id: number,
  codeHash: string,
  now: number,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('mfa_recovery_methods')
    .set({ verified: 1, code_hash: null, code_expires_at: null, last_used: at })
    .where('id', '=', id)
    .where('code_hash', '=', codeHash)
    .where('code_expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Every recovery method, newest first, with its account's address. */
export async function allRecoveryMethods(db: Db): Promise<RecoveryMethod[]> {
  const rows = await db
    .selectFrom('mfa_recovery_methods')
    .innerJoin('admins', 'admins.id', 'mfa_recovery_methods.admin_id')
    .selectAll('mfa_recovery_methods')
    .select('admins.email')
    .orderBy('mfa_recovery_methods.id', 'desc')
    .execute();
  return rows.map((r) => toMethod(r, r.email));
}

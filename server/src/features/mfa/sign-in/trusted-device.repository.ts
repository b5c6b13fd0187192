import type { Insertable, Kysely } from 'kysely';
import type { MfaTrustedDeviceTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_trusted_devices` (remembered browsers; only a hash of the cookie is kept). */

type Db = Kysely<Database>;

export async function isTrustedBrowser(db: Db, adminId: number, tokenHash: string, now: number) {
  const row = await db
    .selectFrom('mfa_trusted_devices')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('admin_id', '=', adminId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertTrustedBrowser(db: Db, row: Insertable<MfaTrustedDeviceTable>): Promise<void> {
  await db.insertInto('mfa_trusted_devices').values(row).execute();
}

export async function deleteTrustedBrowsers(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('mfa_trusted_devices').where('admin_id', '=', adminId).execute();
}

/** The accounts (among these, or all when null) with a browser still remembered. */
export async function accountsWithTrustedBrowser(db: Db, ids: number[] | null, now: number) {
  const rows = await db
    .selectFrom('mfa_trusted_devices')
    .select('admin_id')
    .where('expires_at', '>', now)
    .$if(ids !== null, (q) => q.where('admin_id', 'in', ids ?? []))
    .execute();
  return new Set(rows.map((r) => r.admin_id));
}

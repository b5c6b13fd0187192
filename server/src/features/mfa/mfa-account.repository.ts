import type { Kysely, Selectable } from 'kysely';
import type { MfaDeviceTable } from '../../db/mfa.tables.ts';
import type { Database } from '../../db/schema.ts';

/** The SQL of an account's own MFA state (`mfa_devices`, `mfa_accounts`) read by /api/account/mfa. */

export async function activeDevices(
  db: Kysely<Database>,
  adminId: number,
): Promise<Selectable<MfaDeviceTable>[]> {
  return db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
}

/** Whether an administrator marked the account as having to enrol at its next sign-in. */
export async function enrolRequired(db: Kysely<Database>, adminId: number): Promise<boolean> {
  const acct = await db
    .selectFrom('mfa_accounts')
    .select('enrol_required')
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  return acct?.enrol_required === 1;
}

import type { RecoveryRequest } from '@mailroom/contract/mfa';
import type { Insertable, Kysely } from 'kysely';
import type { MfaRecoveryRequestTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_recovery_requests` ("lost my device" from the sign-in page) and its mapping. */

type Db = Kysely<Database>;

/** The spec's user "name": the address's local part. */
export const nameOf = (email: string) => email.split('@')[0] ?? email;

export async function hasPendingRecoveryRequest(db: Db, adminId: number): Promise<boolean> {
  const row = await db
    .selectFrom('mfa_recovery_requests')
    .select('id')
    .where('admin_id', '=', adminId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertRecoveryRequest(db: Db, row: Insertable<MfaRecoveryRequestTable>): Promise<void> {
  await db.insertInto('mfa_recovery_requests').values(row).execute();
}

/** Every request, newest first. */
export async function allRecoveryRequests(db: Db): Promise<RecoveryRequest[]> {
  const rows = await db
    .selectFrom('mfa_recovery_requests')
    .innerJoin('admins', 'admins.id', 'mfa_recovery_requests.admin_id')
    .selectAll('mfa_recovery_requests')
    .select('admins.email')
    .orderBy('mfa_recovery_requests.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.admin_id,
    userEmail: r.email,
    userName: nameOf(r.email),
    requestType: r.request_type,
    status: r.status as RecoveryRequest['status'],
    requestedAt: r.requested_at,
    resolvedAt: r.resolved_at,
    resolvedBy: r.resolved_by,
    reason: r.reason,
    details: r.details,
    ipAddress: r.ip,
    userAgent: r.user_agent,
  }));
}

export async function recoveryRequestById(db: Db, id: number) {
  return db
    .selectFrom('mfa_recovery_requests')
    .innerJoin('admins', 'admins.id', 'mfa_recovery_requests.admin_id')
    .select(['mfa_recovery_requests.status', 'mfa_recovery_requests.admin_id', 'admins.email'])
    .where('mfa_recovery_requests.id', '=', id)
    .executeTakeFirst();
}

/** Closes a pending request; false when it was resolved meanwhile. */
export async function resolveRecoveryRequest(
  db: Db,
  id: number,
  status: 'approved' | 'rejected',
  at: string,
  by: string,
): Promise<boolean> {
  const res = await db
    .updateTable('mfa_recovery_requests')
    .set({ status, resolved_at: at, resolved_by: by })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

import type { Kysely } from 'kysely';
import type { ACTIVITY_ACTIONS } from '@mailroom/contract/mfa';
import type { Database } from '../../db/schema.ts';

export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** One line of the MFA activity list (spec §3.2 Activity). */
export async function recordActivity(
  db: Kysely<Database>,
  e: {
    adminId: number | null;
    email: string;
    action: ActivityAction;
    ok: boolean;
    ip: string | null;
    at: number;
  },
): Promise<void> {
  await db
    .insertInto('mfa_activity')
    .values({
      at: new Date(e.at).toISOString(),
      admin_id: e.adminId,
      user_email: e.email,
      action: e.action,
      status: e.ok ? 'success' : 'failed',
      ip: e.ip,
    })
    .execute();
}

import type { Kysely } from 'kysely';
import type { ACTIVITY_ACTIONS } from '@mailroom/contract/mfa';
import type { Database } from '../../../db/schema.ts';

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

/** The newest lines of the activity list. */
export async function latestActivity(db: Kysely<Database>, limit: number) {
  return db.selectFrom('mfa_activity').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Sign-ins with a second factor, counted by outcome. */
export async function loginCounts(db: Kysely<Database>): Promise<{ ok: number; failed: number }> {
  const rows = await db
    .selectFrom('mfa_activity')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('action', '=', 'mfa_login')
    .groupBy('status')
    .execute();
  return {
    ok: Number(rows.find((l) => l.status === 'success')?.n ?? 0),
    failed: Number(rows.find((l) => l.status === 'failed')?.n ?? 0),
  };
}

export async function lastActivityAt(db: Kysely<Database>): Promise<string | null> {
  const last = await db
    .selectFrom('mfa_activity')
    .select('at')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.at ?? null;
}

/** Each account's (among these, or all when null) last activity. */
export async function lastActivityByAccount(db: Kysely<Database>, ids: number[] | null) {
  return db
    .selectFrom('mfa_activity')
    .select(['admin_id', (eb) => eb.fn.max('at').as('at')])
    .$if(ids !== null, (q) => q.where('admin_id', 'in', ids ?? []))
    .groupBy('admin_id')
    .execute();
}

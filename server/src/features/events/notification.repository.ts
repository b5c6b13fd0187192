import type { NotificationEvent } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Stores a notification; every process's events stream delivers it to the consoles. */
export async function notify(
  db: Db,
  n: {
    level: NotificationEvent['level'];
    title: string;
    message: string;
    jobId?: number | null;
    /** A system alert's notification: the bell shows it while the alert is open. */
    alertId?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('notifications')
    .values({
      at: Date.now(),
      level: n.level,
      title: n.title.slice(0, 200),
      message: n.message.slice(0, 1000),
      job_id: n.jobId ?? null,
      alert_id: n.alertId ?? null,
    })
    .execute();
}

export async function notificationsSince(db: Db, sinceMs: number): Promise<NotificationEvent[]> {
  const rows = await db
    .selectFrom('notifications')
    .selectAll()
    .where('at', '>=', sinceMs)
    .orderBy('id')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    at: new Date(Number(r.at)).toISOString(),
    level: (['info', 'success', 'warning', 'error'].includes(r.level)
      ? r.level
      : 'info') as NotificationEvent['level'],
    title: r.title,
    message: r.message,
    jobId: r.job_id === null ? null : Number(r.job_id),
  }));
}

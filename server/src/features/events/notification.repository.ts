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

/** An administrator's watermarks: everything up to `read_upto` is read, up to `cleared_upto` cleared. */
export async function readWatermark(
  db: Db,
  adminId: number,
): Promise<{ read_upto: number; cleared_upto: number }> {
  const w = await db
    .selectFrom('notification_watermarks')
    .select(['read_upto', 'cleared_upto'])
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  return { read_upto: Number(w?.read_upto ?? 0), cleared_upto: Number(w?.cleared_upto ?? 0) };
}

/** The newest notifications above `clearedUpto` this administrator has not cleared, with their marks. */
export async function uncleared(db: Db, adminId: number, clearedUpto: number, limit: number) {
  return (
    db
      .selectFrom('notifications as n')
      .leftJoin('notification_marks as m', (j) =>
        j.onRef('m.notification_id', '=', 'n.id').on('m.admin_id', '=', adminId),
      )
      .select(['n.id', 'n.at', 'n.level', 'n.title', 'n.message', 'n.job_id', 'm.read', 'm.cleared'])
      .leftJoin('system_alerts as sa', 'sa.id', 'n.alert_id')
      .where('n.id', '>', clearedUpto)
      .where((eb) => eb.or([eb('m.cleared', 'is', null), eb('m.cleared', '=', 0)]))
      // An alert's notification leaves the bell once the alert is resolved.
      .where((eb) => eb.or([eb('n.alert_id', 'is', null), eb('sa.resolved_at', 'is', null)]))
      .orderBy('n.id', 'desc')
      .limit(limit)
      .execute()
  );
}

export async function notificationExists(db: Db, id: number): Promise<boolean> {
  return (
    (await db.selectFrom('notifications').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** Marks one notification read (and cleared) for an administrator. */
export async function upsertMark(db: Db, adminId: number, id: number, cleared: boolean): Promise<void> {
  await db
    .insertInto('notification_marks')
    .values({ admin_id: adminId, notification_id: id, read: 1, cleared: cleared ? 1 : 0 })
    .onConflict((oc) =>
      oc
        .columns(['admin_id', 'notification_id'])
        .doUpdateSet(cleared ? { cleared: 1, read: 1 } : { read: 1 }),
    )
    .execute();
}

/** The newest notification's id (0 when none). */
export async function newestNotificationId(db: Db): Promise<number> {
  const top = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(top?.id ?? 0);
}

export async function writeWatermark(
  db: Db,
  adminId: number,
  readUpto: number,
  clearedUpto: number,
): Promise<void> {
  await db
    .insertInto('notification_watermarks')
    .values({ admin_id: adminId, read_upto: readUpto, cleared_upto: clearedUpto })
    .onConflict((oc) => oc.column('admin_id').doUpdateSet({ read_upto: readUpto, cleared_upto: clearedUpto }))
    .execute();
}

/** Deletes the notifications older than `before` (ms). */
export async function purgeNotifications(db: Db, before: number): Promise<void> {
  await db.deleteFrom('notifications').where('at', '<', before).execute();
}

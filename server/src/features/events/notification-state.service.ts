import { NOTIFICATIONS_SHOWN, type NotificationList } from '@mailroom/contract/notifications';
import type { NotificationEvent } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

type Db = Kysely<Database>;

const LEVELS = new Set(['info', 'success', 'warning', 'error']);

async function watermark(db: Db, adminId: number): Promise<{ read_upto: number; cleared_upto: number }> {
  const w = await db
    .selectFrom('notification_watermarks')
    .select(['read_upto', 'cleared_upto'])
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  return { read_upto: Number(w?.read_upto ?? 0), cleared_upto: Number(w?.cleared_upto ?? 0) };
}

/**
 * The newest notifications this administrator has not cleared, each with their read state, and
 * how many of them are unread. Read state lives on the server, so a reload or another browser
 * shows the same bell.
 */
export async function listNotifications(db: Db, adminId: number): Promise<NotificationList> {
  const w = await watermark(db, adminId);
  const rows = await db
    .selectFrom('notifications as n')
    .leftJoin('notification_marks as m', (j) =>
      j.onRef('m.notification_id', '=', 'n.id').on('m.admin_id', '=', adminId),
    )
    .select(['n.id', 'n.at', 'n.level', 'n.title', 'n.message', 'n.job_id', 'm.read', 'm.cleared'])
    .leftJoin('system_alerts as sa', 'sa.id', 'n.alert_id')
    .where('n.id', '>', w.cleared_upto)
    .where((eb) => eb.or([eb('m.cleared', 'is', null), eb('m.cleared', '=', 0)]))
    // An alert's notification leaves the bell once the alert is resolved.
    .where((eb) => eb.or([eb('n.alert_id', 'is', null), eb('sa.resolved_at', 'is', null)]))
    .orderBy('n.id', 'desc')
    .limit(NOTIFICATIONS_SHOWN)
    .execute();
  const notifications = rows.map((r) => ({
    id: Number(r.id),
    at: new Date(Number(r.at)).toISOString(),
    level: (LEVELS.has(r.level) ? r.level : 'info') as NotificationEvent['level'],
    title: r.title,
    message: r.message,
    jobId: r.job_id === null ? null : Number(r.job_id),
    read: Number(r.id) <= w.read_upto || Number(r.read ?? 0) === 1,
  }));
  return { notifications, unread: notifications.filter((n) => !n.read).length };
}

async function mark(db: Db, adminId: number, id: number, column: 'read' | 'cleared'): Promise<void> {
  const exists = await db.selectFrom('notifications').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound('Notification not found');
  await db
    .insertInto('notification_marks')
    .values({ admin_id: adminId, notification_id: id, read: 1, cleared: column === 'cleared' ? 1 : 0 })
    .onConflict((oc) =>
      oc
        .columns(['admin_id', 'notification_id'])
        .doUpdateSet(column === 'cleared' ? { cleared: 1, read: 1 } : { read: 1 }),
    )
    .execute();
}

export const markNotificationRead = (db: Db, adminId: number, id: number) => mark(db, adminId, id, 'read');
export const clearNotification = (db: Db, adminId: number, id: number) => mark(db, adminId, id, 'cleared');

/** Ids only grow, so the newest id is always at or above the stored watermark. */
async function setWatermark(db: Db, adminId: number, clear: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const top = await trx
      .selectFrom('notifications')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const upto = Number(top?.id ?? 0);
    const old = await trx
      .selectFrom('notification_watermarks')
      .select('cleared_upto')
      .where('admin_id', '=', adminId)
      .executeTakeFirst();
    const cleared = clear ? upto : Number(old?.cleared_upto ?? 0);
    await trx
      .insertInto('notification_watermarks')
      .values({ admin_id: adminId, read_upto: upto, cleared_upto: cleared })
      .onConflict((oc) => oc.column('admin_id').doUpdateSet({ read_upto: upto, cleared_upto: cleared }))
      .execute();
  });
}

export const markAllNotificationsRead = (db: Db, adminId: number) => setWatermark(db, adminId, false);

/** 'all': everything up to now leaves this administrator's bell; 'read': only what they read. */
export async function clearNotifications(db: Db, adminId: number, which: 'read' | 'all'): Promise<void> {
  if (which === 'all') return setWatermark(db, adminId, true);
  const { notifications } = await listNotifications(db, adminId);
  const read = notifications.filter((n) => n.read).map((n) => n.id);
  if (read.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const id of read)
      await trx
        .insertInto('notification_marks')
        .values({ admin_id: adminId, notification_id: id, read: 1, cleared: 1 })
        .onConflict((oc) => oc.columns(['admin_id', 'notification_id']).doUpdateSet({ read: 1, cleared: 1 }))
        .execute();
  });
}

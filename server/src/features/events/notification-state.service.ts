import { NOTIFICATIONS_SHOWN, type NotificationList } from '@mailroom/contract/notifications';
import type { NotificationEvent } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import {
  newestNotificationId,
  notificationExists,
  readWatermark,
  uncleared,
  upsertMark,
  writeWatermark,
} from './notification.repository.ts';

type Db = Kysely<Database>;

const LEVELS = new Set(['info', 'success', 'warning', 'error']);

/**
 * The newest notifications this administrator has not cleared, each with their read state, and
 * how many of them are unread. Read state lives on the server, so a reload or another browser
 * shows the same bell.
 */
export async function listNotifications(db: Db, adminId: number): Promise<NotificationList> {
  const w = await readWatermark(db, adminId);
  const rows = await uncleared(db, adminId, w.cleared_upto, NOTIFICATIONS_SHOWN);
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
  if (!(await notificationExists(db, id))) throw notFound('Notification not found');
  await upsertMark(db, adminId, id, column === 'cleared');
}

export const markNotificationRead = (db: Db, adminId: number, id: number) => mark(db, adminId, id, 'read');
export const clearNotification = (db: Db, adminId: number, id: number) => mark(db, adminId, id, 'cleared');

/** Ids only grow, so the newest id is always at or above the stored watermark. */
async function setWatermark(db: Db, adminId: number, clear: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const upto = await newestNotificationId(trx);
    const old = await readWatermark(trx, adminId);
    await writeWatermark(trx, adminId, upto, clear ? upto : old.cleared_upto);
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
    for (const id of read) await upsertMark(trx, adminId, id, true);
  });
}

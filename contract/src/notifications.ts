import { z } from 'zod';
import { OkResponse } from './common.ts';
import { NotificationEvent } from './jobs.ts';
import { defineRoute } from './route.ts';
import { queryInt } from './validators.ts';

/** Spec §9: at most 50 notifications kept (shown). */
export const NOTIFICATIONS_SHOWN = 50;

/** A server notification with this administrator's read state (issue 12: kept across reloads). */
export const ServerNotification = NotificationEvent.extend({ read: z.boolean() });
export type ServerNotification = z.infer<typeof ServerNotification>;

export const NotificationList = z.object({
  notifications: z.array(ServerNotification),
  unread: z.number(),
});
export type NotificationList = z.infer<typeof NotificationList>;

export const NotificationIdParams = z.object({ id: queryInt(1, 2 ** 31 - 1, 'Notification id') });

export const ClearNotificationsBody = z.object({
  /** 'read': only those this administrator read; 'all': every one shown now. */
  which: z.enum(['read', 'all']),
});

const tags = ['notifications'];

export const notificationRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'notifications',
    summary: "The newest notifications, with the signed-in administrator's read state",
    tags,
    response: NotificationList,
  }),
  markRead: defineRoute({
    method: 'POST',
    path: 'notifications/:id/read',
    summary: 'Mark one notification read',
    tags,
    params: NotificationIdParams,
    response: OkResponse,
  }),
  markAllRead: defineRoute({
    method: 'POST',
    path: 'notifications/read-all',
    summary: 'Mark every notification read',
    tags,
    response: OkResponse,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'notifications/:id',
    summary: "Clear one notification from this administrator's list",
    tags,
    params: NotificationIdParams,
    response: OkResponse,
  }),
  clear: defineRoute({
    method: 'POST',
    path: 'notifications/clear',
    summary: 'Clear the read notifications, or all of them',
    tags,
    body: ClearNotificationsBody,
    response: OkResponse,
  }),
};

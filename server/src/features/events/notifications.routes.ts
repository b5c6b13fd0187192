import { notificationRoutes } from '@mailroom/contract/notifications';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import {
  clearNotification,
  clearNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from './notification-state.service.ts';

/** The signed-in administrator; reading a bell is not an action worth an audit line. */
function adminOf(request: FastifyRequest): number {
  if (!request.admin) throw unauthorized();
  request.auditDone = true;
  return request.admin.adminId;
}

const OK = { success: true as const };

/** `/api/notifications`: the bell's list and its per-administrator read state. */
export function registerNotifications(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.database.db;
  registerRoute(app, notificationRoutes.list, async ({ request }) => listNotifications(db, adminOf(request)));
  registerRoute(app, notificationRoutes.markRead, async ({ request, params }) => {
    await markNotificationRead(db, adminOf(request), params.id);
    return OK;
  });
  registerRoute(app, notificationRoutes.markAllRead, async ({ request }) => {
    await markAllNotificationsRead(db, adminOf(request));
    return OK;
  });
  registerRoute(app, notificationRoutes.remove, async ({ request, params }) => {
    await clearNotification(db, adminOf(request), params.id);
    return OK;
  });
  registerRoute(app, notificationRoutes.clear, async ({ request, body }) => {
    await clearNotifications(db, adminOf(request), body.which);
    return OK;
  });
}

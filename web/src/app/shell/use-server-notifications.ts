import type { ServerNotification } from '@mailroom/contract/notifications';
import { notifications as toasts } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../api/client.ts';
import { notificationRoutes } from '../../api/first-screen-routes.ts';
import { endToastedByPage } from '../../api/own-job-toasts.ts';
import { subscribeServerEvents } from '../../api/job-events.ts';
import { AUTO_HIDE_MS } from '../../lib/notifications-store.ts';

export const SERVER_NOTIFICATIONS_KEY = ['notifications', 'server'] as const;

const COLOR: Record<ServerNotification['level'], string> = {
  success: 'green',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

/**
 * The server's notifications for the bell (issue 12): the list and this administrator's read
 * state from `/api/notifications`, kept live by the `notification` events of `/api/events` (each
 * new one also shows once as a toast). Read, clear and "mark all read" are stored on the server,
 * so a reload or another browser shows the same bell.
 */
export function useServerNotifications() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: SERVER_NOTIFICATIONS_KEY,
    queryFn: () => apiCall(notificationRoutes.list),
    staleTime: 30_000,
  });

  useEffect(() => {
    const refresh = () => void client.invalidateQueries({ queryKey: SERVER_NOTIFICATIONS_KEY });
    return subscribeServerEvents({
      notification: (n) => {
        refresh();
        // The page that followed the job has said how it ended: the bell keeps it, no second toast.
        if (endToastedByPage(n.jobId)) return;
        toasts.show({
          id: `server-${n.id}`,
          title: n.title,
          message: n.message,
          color: COLOR[n.level],
          autoClose: AUTO_HIDE_MS,
          closeButtonProps: { 'aria-label': 'Dismiss notification' },
          styles: { description: { color: 'var(--mantine-color-text)' } },
        });
      },
      // The stream (re)opened: anything sent meanwhile is in the list.
      ready: refresh,
    });
  }, [client]);

  // Optimistic: the bell changes at once; the refetch after the call says what the server kept.
  // A read already under way (the stream's `ready`, a new notification) is cancelled first, and
  // waited for: its answer, taken before this change, would put a cleared notification back, and
  // a cancelled read restores the data it started from.
  const change = (fn: (l: ServerNotification[]) => ServerNotification[], call: () => Promise<unknown>) =>
    void client.cancelQueries({ queryKey: SERVER_NOTIFICATIONS_KEY }).then(() => {
      client.setQueryData(
        SERVER_NOTIFICATIONS_KEY,
        (old: { notifications: ServerNotification[] } | undefined) => {
          if (!old) return old;
          const notifications = fn(old.notifications);
          return { notifications, unread: notifications.filter((n) => !n.read).length };
        },
      );
      void call()
        .catch(() => undefined)
        .finally(() => void client.invalidateQueries({ queryKey: SERVER_NOTIFICATIONS_KEY }));
    });

  return {
    notifications: list.data?.notifications ?? [],
    markRead: (id: number) =>
      change(
        (l) => l.map((n) => (n.id === id ? { ...n, read: true } : n)),
        () => apiCall(notificationRoutes.markRead, { params: { id } }),
      ),
    markAllRead: () =>
      change(
        (l) => l.map((n) => ({ ...n, read: true })),
        () => apiCall(notificationRoutes.markAllRead),
      ),
    remove: (id: number) =>
      change(
        (l) => l.filter((n) => n.id !== id),
        () => apiCall(notificationRoutes.remove, { params: { id } }),
      ),
    clear: (which: 'read' | 'all') =>
      change(
        (l) => (which === 'all' ? [] : l.filter((n) => !n.read)),
        () => apiCall(notificationRoutes.clear, { body: { which } }),
      ),
  };
}

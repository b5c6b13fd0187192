import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { AUTO_HIDE_MS, notificationsStore, type NotificationType } from '../../lib/notifications-store.ts';

const COLOR: Record<NotificationType, string> = {
  success: 'green',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

/** Shows each new notification briefly as a toast; the bell keeps the list. */
export function ToastBridge() {
  // A failure the same action's later success took away leaves the screen too.
  useEffect(() => notificationsStore.onSuperseded((id) => notifications.hide(id)), []);
  useEffect(
    () =>
      notificationsStore.onAdded((n) => {
        notifications.show({
          id: n.id,
          title: n.title,
          message: n.message,
          color: COLOR[n.type],
          autoClose: AUTO_HIDE_MS,
          closeButtonProps: { 'aria-label': 'Dismiss notification' },
          styles: { description: { color: 'var(--mantine-color-text)' } },
        });
      }),
    [],
  );
  return null;
}

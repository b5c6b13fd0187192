import { notifications, useNotifications as useToasts } from '@mantine/notifications';
import { useEffect } from 'react';
import { AUTO_HIDE_MS, notificationsStore, type NotificationType } from '../../lib/notifications-store.ts';

const COLOR: Record<NotificationType, string> = {
  success: 'green',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

/**
 * Where toasts start: below the shell's header and below the page header while it is in view, so
 * a toast never covers the search, the bell, the menu or the page's own buttons (Refresh, Restart
 * All…). Measured only while a toast is shown (scroll and resize then move it).
 */
function useToastOffset(): void {
  const shown = useToasts().notifications.length > 0;
  useEffect(() => {
    const root = document.documentElement;
    if (!shown) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const header = document.querySelector('[data-page-header]');
      const bottom = header ? Math.round(header.getBoundingClientRect().bottom) : 0;
      root.style.setProperty('--mr-toast-top', `${Math.max(0, bottom)}px`);
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', later, { passive: true, capture: true });
    window.addEventListener('resize', later);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', later, { capture: true });
      window.removeEventListener('resize', later);
    };
  }, [shown]);
}

/** Shows each new notification briefly as a toast; the bell keeps the list. */
export function ToastBridge() {
  useToastOffset();
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

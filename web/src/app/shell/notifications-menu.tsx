import {
  ActionIcon,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
  getDefaultZIndex,
} from '@mantine/core';
import { useInterval, useWindowEvent } from '@mantine/hooks';
import { notifications as toasts } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconBell,
  IconCircleCheck,
  IconCircleX,
  IconInfoCircle,
  IconX,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { formatRelativeTime } from '../../lib/format.ts';
import {
  badgeLabel,
  useNotifications,
  type AppNotification,
  type NotificationActionStyle,
  type NotificationType,
} from '../../lib/notifications-store.ts';
import { useServerNotifications } from './use-server-notifications.ts';

/** One row of the bell: from this tab (a failed call, with its Retry) or from the server (kept). */
type BellItem = AppNotification & { serverId: number | null };

const TYPE_ICON: Record<NotificationType, { icon: Icon; color: string }> = {
  success: { icon: IconCircleCheck, color: 'green' },
  error: { icon: IconCircleX, color: 'red' },
  warning: { icon: IconAlertTriangle, color: 'yellow' },
  info: { icon: IconInfoCircle, color: 'blue' },
};

const ACTION_PROPS: Record<NotificationActionStyle, { variant: string; color?: string }> = {
  primary: { variant: 'filled' },
  danger: { variant: 'filled', color: 'red' },
  secondary: { variant: 'default' },
};

function NotificationItem({
  n,
  now,
  onRead,
  onHide,
}: {
  n: BellItem;
  now: Date;
  onRead: () => void;
  onHide: () => void;
}) {
  const t = TYPE_ICON[n.type];
  return (
    <Box
      px="sm"
      py="xs"
      bg={n.read ? undefined : 'var(--mantine-primary-color-light)'}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      data-testid="notification-item"
      data-read={n.read}
      data-source={n.serverId === null ? 'local' : 'server'}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon color={t.color} variant="light" size="md" radius="xl" aria-hidden>
          <t.icon size={16} />
        </ThemeIcon>
        <UnstyledButton
          onClick={onRead}
          style={{ flex: 1, minWidth: 0 }}
          aria-label={`${n.title}: ${n.message}${n.read ? '' : ' (unread)'}`}
        >
          <Text size="sm" fw={n.read ? 500 : 700}>
            {n.title}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
            {n.message}
          </Text>
          <Text size="xs" c="dimmed" mt={2}>
            {formatRelativeTime(n.timestamp, now)}
          </Text>
        </UnstyledButton>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          onClick={onHide}
          aria-label={`Hide notification ${n.title}`}
        >
          <IconX size={14} aria-hidden />
        </ActionIcon>
      </Group>
      {n.actions.length > 0 && (
        <Group gap={6} mt={6} ml={36}>
          {n.actions.map((a) => (
            <Button
              key={a.label}
              size="compact-xs"
              {...ACTION_PROPS[a.style]}
              data-style={a.style}
              onClick={() => {
                onRead();
                a.onClick();
              }}
            >
              {a.label}
            </Button>
          ))}
        </Group>
      )}
    </Box>
  );
}

/** Spec §2 notifications dropdown: bell with badge, list, mark all read, clear all, clear read. */
export function NotificationsMenu() {
  const local = useNotifications();
  const server = useServerNotifications();
  const [opened, setOpened] = useState(false);
  const [now, setNow] = useState(() => new Date());
  const clock = useInterval(() => setNow(new Date()), 30_000);

  useEffect(() => {
    if (!opened) return;
    setNow(new Date());
    clock.start();
    return clock.stop;
    // clock is stable enough; restart only when the dropdown opens or closes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  // Esc closes the dropdown wherever focus is (the popover only hears it from inside).
  useWindowEvent('keydown', (e) => {
    if (opened && e.key === 'Escape') setOpened(false);
  });

  const notifications: BellItem[] = [
    ...local.notifications.map((n) => ({ ...n, serverId: null })),
    ...server.notifications.map((n): BellItem => ({
      id: `server-${n.id}`,
      serverId: n.id,
      type: n.level,
      title: n.title,
      message: n.message,
      timestamp: new Date(n.at),
      read: n.read,
      persistent: true,
      actions: [],
    })),
  ].sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime());
  const unreadCount = notifications.filter((n) => !n.read).length;

  // The open list shows what the toasts say: those still up when it opens, and any that arrives
  // while it is open, go instead of lying beside or under it.
  const newest = notifications[0]?.id;
  useEffect(() => {
    if (opened) toasts.clean();
  }, [opened, newest]);
  const markRead = (n: BellItem) =>
    n.serverId === null ? local.markRead(n.id) : server.markRead(n.serverId);
  const remove = (n: BellItem) => (n.serverId === null ? local.remove(n.id) : server.remove(n.serverId));
  const markAllRead = () => {
    local.markAllRead();
    if (server.notifications.some((n) => !n.read)) server.markAllRead();
  };
  const clearRead = () => {
    local.clearRead();
    if (server.notifications.some((n) => n.read)) server.clear('read');
  };
  const clearAll = () => {
    local.clearAll();
    if (server.notifications.length) server.clear('all');
  };

  const badge = badgeLabel(unreadCount);
  const hasRead = notifications.some((n) => n.read);

  // The badge sits outside the popover so that the popover's ARIA attributes land on the button.
  return (
    <Indicator
      label={badge}
      disabled={badge === null}
      size={18}
      offset={4}
      color="red"
      data-testid="notification-badge"
    >
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width={360}
        shadow="md"
        withinPortal
        trapFocus={false}
        // The header never scrolls away, so there is no detached state to hide.
        hideDetached={false}
        // Above the toasts (which sit just below the header): one arriving while the list is open
        // must not cover its buttons.
        zIndex={getDefaultZIndex('overlay') + 1}
      >
        <Popover.Target>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={unreadCount > 0 ? `Notifications (${unreadCount} unread)` : 'Notifications'}
          >
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" aria-labelledby="notifications-title">
          <Group justify="space-between" px="xs" pb={6}>
            <Text fw={600} size="sm" id="notifications-title">
              Notifications
            </Text>
            <Group gap={4}>
              <Button size="compact-xs" variant="subtle" onClick={markAllRead} disabled={unreadCount === 0}>
                Mark all read
              </Button>
              <Button size="compact-xs" variant="subtle" onClick={clearRead} disabled={!hasRead}>
                Clear read
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={clearAll}
                disabled={notifications.length === 0}
              >
                Clear all
              </Button>
            </Group>
          </Group>
          <Divider />
          {notifications.length === 0 ? (
            <Text c="dimmed" size="sm" ta="center" py="lg">
              No notifications
            </Text>
          ) : (
            <ScrollArea.Autosize mah={420} type="auto">
              <Stack gap={4} pt={6}>
                {notifications.map((n) => (
                  <NotificationItem
                    key={n.id}
                    n={n}
                    now={now}
                    onRead={() => markRead(n)}
                    onHide={() => remove(n)}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

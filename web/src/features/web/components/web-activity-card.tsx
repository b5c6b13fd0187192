import type { WebActivity } from '@mailroom/contract/web';
import { Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconActivity,
  IconAlertTriangle,
  IconCertificate,
  IconRocket,
  IconSettings,
} from '@tabler/icons-react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { TONE_COLOR, statusTone } from '../web-format.ts';

const ICONS = {
  deployment: IconRocket,
  ssl: IconCertificate,
  configuration: IconSettings,
  error: IconAlertTriangle,
  other: IconActivity,
} as const;

/** Recent Activity (spec 3 §2.1): audit entries and apply outcomes, icon by type. */
export function WebActivityCard({ activity }: { activity: WebActivity[] }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      h="100%"
      component="section"
      aria-labelledby="web-activity-title"
    >
      <Title order={2} size="h4" mb="sm" id="web-activity-title">
        Recent Activity
      </Title>
      {activity.length === 0 ? (
        <Text size="sm" c="dimmed">
          No recent activity
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {activity.map((a) => {
            const Icon = ICONS[a.type];
            return (
              <Group key={a.id} gap="sm" wrap="nowrap" align="flex-start" component="li" data-type={a.type}>
                <ThemeIcon
                  size="md"
                  radius="xl"
                  variant="light"
                  color={TONE_COLOR[statusTone(a.status)]}
                  aria-hidden
                >
                  <Icon size={16} />
                </ThemeIcon>
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {a.description}
                  </Text>
                  {a.details && (
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} lineClamp={2}>
                      {a.details}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed">
                    <time dateTime={a.timestamp} title={new Date(a.timestamp).toLocaleString()}>
                      {formatRelativeTime(a.timestamp)}
                    </time>
                  </Text>
                </div>
                <StatusBadge status={a.status} size="sm" />
              </Group>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}

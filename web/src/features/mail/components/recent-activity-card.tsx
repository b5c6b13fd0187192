import type { AuditEntry } from '@mailroom/contract/audit';
import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { formatRelativeTime } from '../../../lib/format.ts';
import { describeMailActivity } from '../describe-activity.ts';
import { SectionCard } from './section-card.tsx';

/** 'Recent Activity': the latest mail changes from the audit log. */
export function RecentActivityCard({ entries }: { entries: AuditEntry[] }) {
  return (
    <SectionCard
      title="Recent Activity"
      titleId="recent-activity-title"
      emptyText={entries.length === 0 ? 'No recent activity' : null}
      fill
    >
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {entries.map((e) => (
          <Group key={e.id} gap="sm" wrap="nowrap" align="flex-start" component="li">
            <ThemeIcon
              size="sm"
              radius="xl"
              variant="light"
              color={e.outcome === 'success' ? 'green' : 'red'}
              aria-hidden
            >
              {e.outcome === 'success' ? <IconCheck size={12} /> : <IconAlertTriangle size={12} />}
            </ThemeIcon>
            <div style={{ minWidth: 0, flex: 1 }}>
              <Text size="sm" fw={500}>
                {describeMailActivity(e.action, e.outcome)}
              </Text>
              {e.target && (
                <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                  {e.target}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                <time dateTime={e.at} title={new Date(e.at).toLocaleString()}>
                  {formatRelativeTime(e.at)}
                </time>
                {e.actor ? ` · ${e.actor}` : ''}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
    </SectionCard>
  );
}

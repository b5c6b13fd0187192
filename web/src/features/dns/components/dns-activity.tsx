import type { AuditEntry } from '@mailroom/contract/audit';
import { Card, Text, Timeline, Title } from '@mantine/core';
import { IconAlertTriangle, IconPoint } from '@tabler/icons-react';
import { formatRelativeTime } from '../../../lib/format.ts';
import { describeActivity } from '../activity-text.ts';

/** 'Recent DNS Activity' from the audit log: description, target and time. */
export function DnsActivity({ entries }: { entries: AuditEntry[] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="sm">
        Recent DNS Activity
      </Title>
      {entries.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          No recent DNS activity
        </Text>
      ) : (
        <Timeline bulletSize={20} lineWidth={2}>
          {entries.map((e) => (
            <Timeline.Item
              key={e.id}
              color={e.outcome === 'failure' ? 'red' : 'blue'}
              bullet={
                e.outcome === 'failure' ? (
                  <IconAlertTriangle size={12} aria-hidden />
                ) : (
                  <IconPoint size={12} aria-hidden />
                )
              }
              title={describeActivity(e)}
            >
              {e.target && (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {e.target}
                </Text>
              )}
              <Text size="xs" c="dimmed" title={new Date(e.at).toLocaleString()}>
                {formatRelativeTime(e.at)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Card>
  );
}

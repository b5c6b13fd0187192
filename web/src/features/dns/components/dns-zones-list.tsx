import type { Zone } from '@mailroom/contract/dns';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';

/** The dashboard's zone list: domain, records, last updated, status and Manage. */
export function DnsZonesList({ zones, total }: { zones: Zone[]; total: number }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          DNS Zones
        </Title>
        {total > zones.length && (
          <Button component={Link} to="/dns/zones" variant="subtle" size="xs">
            View all {total}
          </Button>
        )}
      </Group>
      {zones.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          No DNS zones found
        </Text>
      ) : (
        <Stack gap={0}>
          {zones.map((z) => (
            <Group
              key={z.domain}
              justify="space-between"
              wrap="wrap"
              py="xs"
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            >
              <div style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {z.domain}
                </Text>
                <Text size="xs" c="dimmed">
                  {z.records} record{z.records === 1 ? '' : 's'} · Updated {formatRelativeTime(z.lastUpdated)}
                </Text>
              </div>
              <Group gap="xs">
                <StatusBadge status={z.status} />
                <Button
                  component={Link}
                  to={`/dns/zones/${encodeURIComponent(z.domain)}`}
                  size="xs"
                  variant="light"
                  aria-label={`Manage ${z.domain}`}
                >
                  Manage
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

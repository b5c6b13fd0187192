import { Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../api/client.ts';
import { refreshSystemStatus, useSystemStatus } from '../../api/system-status.ts';
import { LoadState } from '../../components/load-state.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatBytes, formatUptime, percentOf } from '../../lib/format.ts';
import { notify } from '../../lib/notifications-store.ts';

function UsageRow({ label, used, total }: { label: string; used: number; total: number }) {
  const pct = percentOf(used, total);
  return (
    <div>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {formatBytes(used)} / {formatBytes(total)}
        </Text>
      </Group>
      <Progress
        value={pct}
        color={pct > 90 ? 'red' : pct > 75 ? 'yellow' : 'blue'}
        mt={6}
        aria-label={`${label} used ${pct}%`}
      />
    </div>
  );
}

/** Spec §2 /dashboard system status card, read from GET /api/system/status. */
export function SystemStatusCard() {
  const status = useSystemStatus();
  const reportedLoadError = useRef(false);

  // The first automatic load failing is worth a notification; manual refreshes report themselves.
  useEffect(() => {
    if (status.isLoadingError && !reportedLoadError.current) {
      reportedLoadError.current = true;
      notify({ type: 'error', title: 'Failed to load system status', message: errorMessage(status.error) });
    }
  }, [status.isLoadingError, status.error]);

  const data = status.data;
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="system-status-title">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="system-status-title">
          System Status
        </Title>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconRefresh size={16} aria-hidden />}
          loading={status.isFetching}
          onClick={() => void refreshSystemStatus()}
        >
          Refresh
        </Button>
      </Group>
      <LoadState
        loading={status.isPending}
        error={status.isError && !data ? errorMessage(status.error) : null}
        errorTitle="Failed to load system status"
        loadingLabel="Loading system status…"
        onRetry={() => void refreshSystemStatus()}
      >
        {data && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  Status
                </Text>
                <StatusBadge status={data.status} size="lg" mt={4} data-testid="system-status" />
              </div>
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  Uptime
                </Text>
                <Text fw={600} size="lg" data-testid="system-uptime">
                  {formatUptime(data.uptime)}
                </Text>
              </div>
            </SimpleGrid>
            <UsageRow label="Memory" used={data.memory.used} total={data.memory.total} />
            <UsageRow label="Disk" used={data.disk.used} total={data.disk.total} />
            <Text size="xs" c="dimmed">
              Last updated {new Date(status.dataUpdatedAt).toLocaleTimeString()}
            </Text>
          </Stack>
        )}
      </LoadState>
    </Card>
  );
}

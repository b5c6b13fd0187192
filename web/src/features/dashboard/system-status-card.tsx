import type { SystemStatus } from '@mailroom/contract/system';
import { Anchor, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../api/client.ts';
import { refreshSystemStatus, useSystemStatus } from '../../api/system-status.ts';
import { LoadState } from '../../components/load-state.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatBytes, formatUptime } from '../../lib/format.ts';
import { notify } from '../../lib/notifications-store.ts';

/** Spelled here: the contract's labels module imports zod, which stays off the first screen. */
const DAEMON_LABEL: Record<SystemStatus['daemons'][number]['name'], string> = {
  postfix: 'Postfix',
  dovecot: 'Dovecot',
  rspamd: 'Rspamd',
  named: 'BIND',
};
const STATE_LABEL: Record<SystemStatus['daemons'][number]['state'], string> = {
  running: 'Running',
  stopped: 'Stopped',
  failed: 'Failed',
  'not-installed': 'Not installed',
  unmanaged: 'Not run by Mailroom',
};
const STATUS_LABEL: Record<SystemStatus['status'], string> = {
  running: 'running',
  degraded: 'degraded',
  critical: 'critical',
};

function UsageRow({
  label,
  used,
  total,
  pct,
  t,
}: {
  label: string;
  used: number;
  total: number;
  /** The one figure (memory: used of total; disk: used of what users can use, as df shows). */
  pct: number;
  /** The alert engine's thresholds for this figure. */
  t: { warning: number; critical: number };
}) {
  return (
    <div>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {formatBytes(used)} / {formatBytes(total)} · {pct.toFixed(1)}%
        </Text>
      </Group>
      <Progress
        value={Math.min(100, pct)}
        color={pct >= t.critical ? 'red' : pct >= t.warning ? 'yellow' : 'blue'}
        mt={6}
        aria-label={`${label} used ${pct.toFixed(1)}%`}
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
      notify({
        type: 'error',
        title: 'Failed to load system status',
        message: errorMessage(status.error),
        key: 'system-status.refresh',
      });
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
                <StatusBadge
                  status={data.status === 'critical' ? 'failed' : data.status}
                  label={STATUS_LABEL[data.status]}
                  size="lg"
                  mt={4}
                  data-testid="system-status"
                />
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
            {data.reasons.length > 0 && (
              <div data-testid="system-status-reasons">
                <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                  Why it is {STATUS_LABEL[data.status]}
                </Text>
                <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                  {data.reasons.map((r) => (
                    <Group
                      key={`${r.source}:${r.message}`}
                      component="li"
                      gap="xs"
                      wrap="nowrap"
                      align="flex-start"
                    >
                      <StatusBadge
                        status={r.severity === 'critical' ? 'failed' : 'warning'}
                        label={r.severity === 'critical' ? 'Critical' : 'Warning'}
                        style={{ flexShrink: 0 }}
                      />
                      <Text size="sm" style={{ wordBreak: 'break-word' }}>
                        {r.message}
                      </Text>
                    </Group>
                  ))}
                </Stack>
                {data.openCriticalAlerts > 0 && (
                  <Anchor component={Link} to="/system" size="sm">
                    See the alerts
                  </Anchor>
                )}
              </div>
            )}
            <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs" data-testid="system-status-daemons">
              {data.daemons.map((d) => (
                <div key={d.name} title={d.detail}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                    {DAEMON_LABEL[d.name]}
                  </Text>
                  <StatusBadge status={d.state} label={STATE_LABEL[d.state]} mt={2} />
                </div>
              ))}
            </SimpleGrid>
            <Group gap="lg">
              <Text size="sm">
                <Text span c="dimmed">
                  Mail queue:{' '}
                </Text>
                {data.queueSize === null ? 'not readable' : `${data.queueSize} waiting`}
              </Text>
              <Text size="sm">
                <Text span c="dimmed">
                  Open critical alerts:{' '}
                </Text>
                {data.openCriticalAlerts}
              </Text>
            </Group>
            <UsageRow
              label="Memory"
              used={data.memory.used}
              total={data.memory.total}
              pct={data.memory.percent}
              t={data.thresholds.memory}
            />
            <UsageRow
              label="Disk"
              used={data.disk.used}
              total={data.disk.total}
              pct={data.disk.percent}
              t={data.thresholds.disk}
            />
            <Text size="xs" c="dimmed">
              Last updated {new Date(status.dataUpdatedAt).toLocaleTimeString()}
            </Text>
          </Stack>
        )}
      </LoadState>
    </Card>
  );
}

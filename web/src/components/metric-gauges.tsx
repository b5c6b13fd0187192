import type { MetricsAnswer } from '@mailroom/contract/system-metrics';
import { Card, Group, RingProgress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { average, metricStatus, STATUS_COLOR } from '../api/live-metrics.ts';
import { formatBytes } from '../lib/format.ts';
import { StatusBadge } from './status-badge.tsx';

const WORD = { good: 'Good', warning: 'Warning', critical: 'Critical' } as const;

function Gauge({
  label,
  value,
  t,
  caption,
}: {
  label: string;
  value: number;
  t: { warning: number; critical: number };
  caption: string;
}) {
  const status = metricStatus(value, t);
  return (
    <Card withBorder radius="md" padding="md">
      <Group wrap="nowrap" gap="md">
        <RingProgress
          size={92}
          thickness={9}
          roundCaps
          transitionDuration={0}
          sections={[{ value: Math.min(100, value), color: STATUS_COLOR[status] }]}
          label={
            <Text ta="center" fw={700} size="sm" data-testid={`gauge-${label.toLowerCase()}`}>
              {value.toFixed(1)}%
            </Text>
          }
          aria-label={`${label} ${value.toFixed(1)} percent`}
        />
        <Stack gap={2}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {label}
          </Text>
          <StatusBadge
            status={status === 'good' ? 'ok' : status === 'critical' ? 'failed' : 'warning'}
            label={WORD[status]}
          />
          <Text size="xs" c="dimmed">
            {caption}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** Four gauge cards: CPU, Memory, Disk, Network in/out, each with its status word. */
export function MetricGauges({ data }: { data: MetricsAnswer }) {
  const s = data.stats;
  const last30 = (k: 'cpu' | 'memory') => data.series[k].slice(-30).map((p) => p.value);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
      <Gauge
        label="CPU"
        value={s.cpuUsage}
        t={data.thresholds.cpu}
        caption={`Average ${average(last30('cpu'))}% · load ${s.loadAverage[0]}`}
      />
      <Gauge
        label="Memory"
        value={s.memoryUsage}
        t={data.thresholds.memory}
        caption={`Average ${average(last30('memory'))}%`}
      />
      <Gauge
        label="Disk"
        value={s.diskUsage}
        t={data.thresholds.disk}
        caption="Data folder's file system, used of what users can use (as df shows)"
      />
      <Card withBorder radius="md" padding="md">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          Network
        </Text>
        <Group gap="xs" mt={6}>
          <IconArrowDown size={18} aria-hidden />
          <Text fw={700} data-testid="network-in">
            {formatBytes(s.networkIn)}/s
          </Text>
          <Text size="xs" c="dimmed">
            in
          </Text>
        </Group>
        <Group gap="xs" mt={4}>
          <IconArrowUp size={18} aria-hidden />
          <Text fw={700}>{formatBytes(s.networkOut)}/s</Text>
          <Text size="xs" c="dimmed">
            out
          </Text>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          {s.activeConnections} active connections (established TCP)
        </Text>
      </Card>
    </SimpleGrid>
  );
}

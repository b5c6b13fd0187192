import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconActivity,
  IconClock,
  IconCpu,
  IconDatabase,
  IconDeviceSdCard,
  IconRefresh,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { formatBytes, formatUptime } from '../../lib/format.ts';
import { AlertsTable } from './components/alerts-table.tsx';
import { ServicesTable } from './components/services-table.tsx';
import { UpdatesSummary } from './components/updates-summary.tsx';
import { useJobRunner } from './use-job-runner.ts';
import { systemKeys, useAlerts, useMetrics, useServices, useUpdates } from './use-system-admin.ts';

const NA = 'Not available';

function Panel({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap={4}>
        {rows.map(([k, v]) => (
          <Group key={k} justify="space-between">
            <Text size="sm" c="dimmed">
              {k}
            </Text>
            <Text size="sm" fw={600}>
              {v}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/** System Administration (spec §2.8): the machine at a glance, alerts, services and updates. */
export default function SystemPage() {
  const qc = useQueryClient();
  const metrics = useMetrics();
  const services = useServices();
  const alerts = useAlerts();
  const updates = useUpdates();
  const jobs = useJobRunner();
  const loading = alerts.isPending;
  const error = alerts.error;
  const fetching = alerts.isFetching || metrics.isFetching;
  const s = metrics.data?.stats;
  const pct = (v: number | undefined) => (v === undefined ? NA : `${v.toFixed(1)}%`);
  const rate = (v: number | undefined) => (v === undefined ? NA : `${formatBytes(v)}/s`);
  const caption = s
    ? `Sampled ${new Date(s.sampledAt).toLocaleTimeString()}`
    : 'Live figures come from the monitoring service';

  return (
    <>
      <PageHeader
        title="System Administration"
        subtitle="Machine health, alerts, services and updates"
        breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'System Administration' }]}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={fetching}
              disabled={fetching}
              onClick={() => void qc.invalidateQueries({ queryKey: systemKeys.all })}
            >
              Refresh
            </Button>
            <Button
              component={Link}
              to="/system/monitoring"
              leftSection={<IconActivity size={16} aria-hidden />}
            >
              System Monitoring
            </Button>
          </>
        }
      />
      <LoadState
        loading={loading}
        error={error ? errorMessage(error) : null}
        errorTitle="Failed to load system administration data"
        onRetry={() => void qc.invalidateQueries({ queryKey: systemKeys.all })}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <StatCard
              title="System Uptime"
              value={s ? formatUptime(s.uptime) : NA}
              caption={caption}
              icon={<IconClock />}
            />
            <StatCard title="CPU Usage" value={pct(s?.cpuUsage)} icon={<IconCpu />} color="teal" />
            <StatCard
              title="Memory Usage"
              value={pct(s?.memoryUsage)}
              icon={<IconDatabase />}
              color="grape"
            />
            <StatCard
              title="Disk Usage"
              value={pct(s?.diskUsage)}
              icon={<IconDeviceSdCard />}
              color="orange"
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Panel
              title="Load Average"
              rows={[
                ['1 minute', s ? s.loadAverage[0].toFixed(2) : NA],
                ['5 minutes', s ? s.loadAverage[1].toFixed(2) : NA],
                ['15 minutes', s ? s.loadAverage[2].toFixed(2) : NA],
              ]}
            />
            <Panel
              title="Network Activity"
              rows={[
                ['Active connections', s ? String(s.activeConnections) : NA],
                ['Network in', rate(s?.networkIn)],
                ['Network out', rate(s?.networkOut)],
              ]}
            />
            <Panel
              title="Process Information"
              rows={[
                ['Total processes', s ? String(s.totalProcesses) : NA],
                ['Running services', s ? String(s.runningServices) : NA],
                ['Total services', s ? String(s.totalServices) : NA],
              ]}
            />
          </SimpleGrid>
          <AlertsTable alerts={alerts.data?.alerts ?? []} />
          <ServicesTable services={services.data?.services ?? null} />
          <UpdatesSummary query={updates} job={jobs.job} run={jobs.run} />
        </Stack>
      </LoadState>
    </>
  );
}

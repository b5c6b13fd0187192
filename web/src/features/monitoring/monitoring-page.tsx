import type { MetricsAnswer, SystemService } from '@mailroom/contract/system-metrics';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import {
  IconArrowDownRight,
  IconArrowRight,
  IconArrowUpRight,
  IconCheck,
  IconCircleCheck,
  IconRefresh,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { metricsKey, metricStatus, STATUS_COLOR, trendOf, useLiveMetrics } from '../../api/live-metrics.ts';
import { servicesKey, useServiceAction, useSystemServices } from '../../api/system-services.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { TrendCharts } from '../../components/metric-trend-charts.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatUptime } from '../../lib/format.ts';
import { actionSucceeded, notify } from '../../lib/notifications-store.ts';
import { LiveLogStream } from './live-log-stream.tsx';
import { alertsKey, useAcknowledge, useActiveAlerts } from './use-alerts.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'Real-time Monitoring' }];
const AUTO_REFRESH_MS = 30_000;
/** Network card: Mbps, warning from 100, critical from 500. */
const NETWORK = { warning: 100, critical: 500 };

const TREND_ICON = { up: IconArrowUpRight, down: IconArrowDownRight, stable: IconArrowRight };

function MetricCard(p: {
  name: string;
  value: number;
  unit: string;
  t: { warning: number; critical: number };
  history: number[];
  testId: string;
}) {
  const status = metricStatus(p.value, p.t);
  const trend = trendOf([...p.history, p.value]);
  const Icon = TREND_ICON[trend];
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          {p.name}
        </Text>
        <StatusBadge
          status={status === 'good' ? 'ok' : status === 'critical' ? 'failed' : 'warning'}
          label={status}
        />
      </Group>
      <Group gap="xs" mt={6} align="baseline">
        <Text fz={28} fw={700} data-testid={p.testId}>
          {p.value.toFixed(1)}
        </Text>
        <Text c="dimmed">{p.unit}</Text>
        <Icon
          size={18}
          aria-label={`trend ${trend}`}
          color={`var(--mantine-color-${STATUS_COLOR[status]}-7)`}
        />
      </Group>
      <Text size="xs" c="dimmed">
        Warning {p.t.warning}
        {p.unit}, critical {p.t.critical}
        {p.unit}
      </Text>
    </Card>
  );
}

function Overview({ data }: { data: MetricsAnswer }) {
  const s = data.stats;
  const live = data.live ?? [];
  const mbps = ((s.networkIn + s.networkOut) * 8) / 1_000_000;
  const hist = (f: (x: MetricsAnswer['stats']) => number) => live.slice(-2, -1).map(f);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
      <MetricCard
        name="CPU Usage"
        value={s.cpuUsage}
        unit="%"
        t={data.thresholds.cpu}
        history={hist((x) => x.cpuUsage)}
        testId="metric-cpu"
      />
      <MetricCard
        name="Memory Usage"
        value={s.memoryUsage}
        unit="%"
        t={data.thresholds.memory}
        history={hist((x) => x.memoryUsage)}
        testId="metric-memory"
      />
      <MetricCard
        name="Disk Usage"
        value={s.diskUsage}
        unit="%"
        t={data.thresholds.disk}
        history={hist((x) => x.diskUsage)}
        testId="metric-disk"
      />
      <MetricCard
        name="Network"
        value={mbps}
        unit="Mbps"
        t={NETWORK}
        history={hist((x) => ((x.networkIn + x.networkOut) * 8) / 1_000_000)}
        testId="metric-network"
      />
    </SimpleGrid>
  );
}

function ActiveAlerts({ every }: { every: number | false }) {
  const alerts = useActiveAlerts(every);
  const ack = useAcknowledge();
  const list = alerts.data?.alerts ?? [];
  const missing = alerts.error instanceof ApiError && alerts.error.status === 404;
  const act = async (id: number | 'all') => {
    try {
      await ack.mutateAsync(id);
      actionSucceeded('alerts.acknowledge');
    } catch (err) {
      notify({
        type: 'error',
        title: 'Failed to acknowledge',
        message: errorMessage(err),
        key: 'alerts.acknowledge',
      });
    }
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Active Alerts
        </Title>
        <Button
          size="xs"
          variant="default"
          disabled={list.length === 0}
          loading={ack.isPending}
          onClick={() => void act('all')}
        >
          Acknowledge All
        </Button>
      </Group>
      {alerts.error && !missing && <Text c="red">{errorMessage(alerts.error)}</Text>}
      {missing && (
        <Text size="sm" c="dimmed">
          Alerts are not available on this server.
        </Text>
      )}
      {!alerts.error && list.length === 0 && !alerts.isLoading && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} variant="light">
          All Systems Normal – No active alerts at this time.
        </Alert>
      )}
      <Stack gap="xs">
        {list.map((a) => (
          <Alert
            key={a.id}
            color={a.severity === 'critical' ? 'red' : a.severity === 'warning' ? 'yellow' : 'blue'}
            title={a.title}
            variant="light"
            withCloseButton
            closeButtonLabel={`Dismiss alert ${a.title}`}
            onClose={() => void act(a.id)}
          >
            <Text size="sm">{a.message}</Text>
            <Text size="xs" c="dimmed">
              {new Date(a.timestamp).toLocaleString()}
            </Text>
          </Alert>
        ))}
      </Stack>
    </Card>
  );
}

/** The daemons whose restart or stop interrupts mail or DNS: always confirmed first. */
const MAIL_DNS = new Set(['postfix', 'dovecot', 'rspamd', 'named']);

const serviceId = (s: SystemService) => s.id;
const serviceTestId = (s: SystemService) => `service-${s.id}`;

function ServiceStatus({ every }: { every: number | false }) {
  const services = useSystemServices(every);
  const action = useServiceAction();
  const run = async (s: SystemService, verb: 'start' | 'restart') => {
    if (verb === 'restart') {
      const ok = await confirmAction({
        title: `Restart ${s.name}?`,
        message: `${s.name} stops while it restarts. ${s.impact ?? ''}`.trim(),
        confirmLabel: 'Restart',
        danger: MAIL_DNS.has(s.id),
      });
      if (!ok) return;
    }
    try {
      const r = await action.mutateAsync({ id: s.id, action: verb });
      notify({
        type: r.ok ? 'success' : 'error',
        title: r.ok
          ? `${s.name} ${verb === 'start' ? 'started' : 'restarted'}`
          : `Could not ${verb} ${s.name}`,
        message: r.message,
        key: `service.${s.id}`,
      });
    } catch (err) {
      notify({
        type: 'error',
        title: `Could not ${verb} ${s.name}`,
        message: errorMessage(err),
        key: `service.${s.id}`,
      });
    }
  };
  const pendingFor = (s: SystemService) => action.isPending && action.variables?.id === s.id;
  const columns: ColumnDef<SystemService, unknown>[] = [
    {
      id: 'service',
      header: 'Service',
      meta: { title: true },
      cell: ({ row: { original: s } }) => (
        <>
          <Text size="sm" fw={500}>
            {s.name}
          </Text>
          {s.note && (
            <Text size="xs" c="dimmed" maw={360} lineClamp={2} title={s.note}>
              {s.note}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row: { original: s } }) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <StatusBadge status={s.status} />
        </span>
      ),
    },
    {
      id: 'uptime',
      header: 'Uptime',
      cell: ({ row: { original: s } }) => (s.status === 'running' ? formatUptime(s.uptime) : '—'),
    },
    {
      id: 'lastRestart',
      header: 'Last Restart',
      cell: ({ row: { original: s } }) => (s.lastRestart ? new Date(s.lastRestart).toLocaleString() : '—'),
    },
    {
      id: 'action',
      header: 'Action',
      meta: { actions: true },
      cell: ({ row: { original: s } }) =>
        !s.controllable ? (
          // Start/Restart only for what Mailroom runs (or systemd runs for it).
          <Tooltip label={s.note ?? 'Not run by Mailroom'} multiline maw={320}>
            <Text size="xs" c="dimmed" tabIndex={0}>
              Not run by Mailroom
            </Text>
          </Tooltip>
        ) : s.status === 'running' ? (
          <Button size="xs" variant="default" onClick={() => void run(s, 'restart')} loading={pendingFor(s)}>
            Restart
          </Button>
        ) : (
          <Button
            size="xs"
            leftSection={<IconCheck size={14} aria-hidden />}
            onClick={() => void run(s, 'start')}
            loading={pendingFor(s)}
          >
            Start
          </Button>
        ),
    },
  ];
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="sm">
        Service Status
      </Title>
      {services.error && <Text c="red">{errorMessage(services.error)}</Text>}
      <DataTable
        label="Service Status table"
        data={services.data?.services ?? []}
        columns={columns}
        getRowId={serviceId}
        getRowTestId={serviceTestId}
        emptyText=""
        minWidth={720}
      />
    </Card>
  );
}

export default function MonitoringPage() {
  const qc = useQueryClient();
  const [auto, setAuto] = useState(false);
  const every = auto ? AUTO_REFRESH_MS : false;
  const metrics = useLiveMetrics();
  const [dismissed, setDismissed] = useState(false);
  const refresh = () => {
    setDismissed(false);
    void qc.invalidateQueries({ queryKey: metricsKey });
    void qc.invalidateQueries({ queryKey: servicesKey });
    void qc.invalidateQueries({ queryKey: alertsKey });
  };
  return (
    <>
      <PageHeader
        title="Real-time Monitoring"
        breadcrumbs={BREADCRUMBS}
        subtitle={
          <span>
            {metrics.connected ? 'Live: figures arrive every 2 seconds' : 'Connecting to the live stream…'}
            {metrics.data && (
              <span data-testid="metrics-updated">
                {' '}
                · updated {new Date(metrics.data.stats.sampledAt).toLocaleTimeString()}
              </span>
            )}
          </span>
        }
        actions={
          <>
            <Switch
              label={`Auto Refresh ${auto ? 'ON' : 'OFF'}`}
              checked={auto}
              onChange={(e) => setAuto(e.currentTarget.checked)}
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={refresh}
              disabled={metrics.isFetching}
            >
              Refresh
            </Button>
          </>
        }
      />
      <Stack gap="md">
        <LoadState
          loading={metrics.isLoading}
          error={metrics.error && !dismissed ? errorMessage(metrics.error) : null}
          errorTitle="Failed to load monitoring data"
          onRetry={refresh}
          onDismiss={() => setDismissed(true)}
        />
        {metrics.data && (
          <>
            <Title order={2} size="h4">
              System Status Overview
            </Title>
            <Overview data={metrics.data} />
            <Title order={2} size="h4">
              Performance Trends
            </Title>
            <TrendCharts data={metrics.data} />
          </>
        )}
        <ActiveAlerts every={every} />
        <ServiceStatus every={every} />
        <LiveLogStream />
      </Stack>
    </>
  );
}

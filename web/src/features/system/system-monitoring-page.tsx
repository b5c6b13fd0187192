import { Badge, Button, Card, Stack, Switch, Tabs } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { metricsKey, useLiveMetrics } from '../../api/live-metrics.ts';
import { LoadState } from '../../components/load-state.tsx';
import { MetricGauges } from '../../components/metric-gauges.tsx';
import { TrendCharts } from '../../components/metric-trend-charts.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ConnectionsTab } from './monitoring/connections-tab.tsx';
import { DisksTab } from './monitoring/disks-tab.tsx';
import { LogsTab } from './monitoring/logs-tab.tsx';
import { ProcessesTab } from './monitoring/processes-tab.tsx';
import { QueueTab } from './monitoring/queue-tab.tsx';
import { liveKeys, useConnections, useDisks, useProcesses, useQueue } from './monitoring/use-system-live.ts';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'System Administration', to: '/system' },
  { label: 'Monitoring' },
];
/** Spec §9: the auto refresh cycle is 30 s, off by default. */
const AUTO_REFRESH_MS = 30_000;

function download(name: string, text: string, type: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

export default function SystemMonitoringPage() {
  const qc = useQueryClient();
  const [auto, setAuto] = useState(false);
  const every = auto ? AUTO_REFRESH_MS : false;
  const metrics = useLiveMetrics();
  const processes = useProcesses(every);
  const connections = useConnections(every);
  const disks = useDisks(every);
  const queue = useQueue(every);
  const [logCount, setLogCount] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const loading = metrics.isFetching || processes.isFetching || connections.isFetching || disks.isFetching;
  const error = metrics.error ?? processes.error ?? connections.error ?? disks.error;

  const refresh = () => {
    setDismissed(false);
    void qc.invalidateQueries({ queryKey: metricsKey });
    void qc.invalidateQueries({ queryKey: liveKeys.all });
  };
  const exportData = () => {
    const data = {
      exportedAt: new Date().toISOString(),
      metrics: metrics.data ?? null,
      processes: processes.data?.processes ?? [],
      connections: connections.data?.connections ?? [],
      disks: disks.data?.disks ?? [],
      mailQueue: queue.data?.messages ?? [],
    };
    download(
      `system-monitoring-${data.exportedAt.replace(/[:.]/g, '-')}.json`,
      JSON.stringify(data, null, 2),
      'application/json',
    );
  };
  const count = (n: number | undefined) => (
    <Badge size="sm" variant="light" ml={4} component="span">
      {n ?? 0}
    </Badge>
  );

  return (
    <>
      <PageHeader
        title="System Monitoring"
        breadcrumbs={BREADCRUMBS}
        subtitle={
          <span>
            Live figures, processes, connections, disks, logs and the mail queue of this machine
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
              disabled={loading}
            >
              Refresh Now
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={exportData}
              disabled={!metrics.data}
            >
              Export Data
            </Button>
          </>
        }
      />
      <Stack gap="md">
        <LoadState
          loading={metrics.isLoading}
          error={error && !dismissed ? errorMessage(error) : null}
          errorTitle="Failed to load monitoring data"
          loadingLabel="Loading monitoring data…"
          onRetry={refresh}
          onDismiss={() => setDismissed(true)}
        />
        {metrics.data && (
          <>
            <MetricGauges data={metrics.data} />
            <TrendCharts data={metrics.data} />
          </>
        )}
        <Card withBorder radius="md" padding="md">
          <Tabs defaultValue="processes" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="processes">Processes {count(processes.data?.processes.length)}</Tabs.Tab>
              <Tabs.Tab value="connections">
                Network Connections {count(connections.data?.connections.length)}
              </Tabs.Tab>
              <Tabs.Tab value="disks">Disk Usage {count(disks.data?.disks.length)}</Tabs.Tab>
              <Tabs.Tab value="logs">System Logs {count(logCount)}</Tabs.Tab>
              <Tabs.Tab value="queue">Mail Queue {count(queue.data?.messages.length)}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="processes">
              <ProcessesTab processes={processes.data?.processes ?? []} />
            </Tabs.Panel>
            <Tabs.Panel value="connections">
              <ConnectionsTab connections={connections.data?.connections ?? []} />
            </Tabs.Panel>
            <Tabs.Panel value="disks">
              <DisksTab
                disks={disks.data?.disks ?? []}
                onRefresh={() => void disks.refetch()}
                refreshing={disks.isFetching}
              />
            </Tabs.Panel>
            <Tabs.Panel value="logs">
              <LogsTab every={every} onCount={setLogCount} />
            </Tabs.Panel>
            <Tabs.Panel value="queue">
              <QueueTab messages={queue.data?.messages ?? []} unavailable={queue.data?.unavailable ?? null} />
            </Tabs.Panel>
          </Tabs>
        </Card>
      </Stack>
    </>
  );
}

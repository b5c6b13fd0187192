import type { AppInstance, WebApplicationSummary } from '@mailroom/contract/web';
import { Alert, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { formatBytes } from '../app-format.ts';

const rowId = (i: AppInstance) => String(i.id);

/**
 * The running instances of the live release (several with Enable Load Balancing: Apache's balancer
 * sends requests to every one) and whether Memory Limit / CPU Limit are enforced, or why not.
 */
export function AppInstances({ app }: { app: WebApplicationSummary }) {
  const columns = useMemo<ColumnDef<AppInstance, unknown>[]>(
    () => [
      { id: 'id', header: 'Instance', meta: { title: true }, cell: ({ row }) => `#${row.original.id}` },
      { id: 'port', header: 'Port', cell: ({ row }) => row.original.port },
      { id: 'pid', header: 'Process', cell: ({ row }) => row.original.pid ?? '—' },
      {
        id: 'state',
        header: 'State',
        cell: ({ row }) => (row.original.state === 'running' ? 'Running' : 'Restarting (back-off)'),
      },
      {
        id: 'memory',
        header: 'Memory',
        cell: ({ row }) => (row.original.memoryBytes === null ? '—' : formatBytes(row.original.memoryBytes)),
      },
    ],
    [],
  );
  const limits = app.resourceLimits;
  const balancing = app.enableLoadBalancing
    ? `Load balancing over ${app.instances.length} instance(s) (Min ${app.minInstances}, Max ${app.maxInstances}${app.enableScaling ? ', scaling by request rate' : ''})`
    : 'One instance (Enable Load Balancing is off)';
  return (
    <Stack gap="xs" component="section" aria-labelledby="app-instances-title">
      <Title order={3} size="h5" id="app-instances-title">
        Instances
      </Title>
      <Text size="sm" c="dimmed">
        {balancing}
      </Text>
      <DataTable
        label={`Instances of ${app.name}`}
        data={app.instances}
        columns={columns}
        getRowId={rowId}
        emptyText="No instance is running."
        minWidth={420}
      />
      {limits.enforced ? (
        <Text size="sm">
          Limits enforced by {limits.mechanism}: {limits.detail}
        </Text>
      ) : (
        <Alert color="yellow" variant="light" title="Memory Limit and CPU Limit">
          <Text size="sm">{limits.detail}</Text>
        </Alert>
      )}
    </Stack>
  );
}

import { DAEMON_PENDING_LABELS } from '@mailroom/contract/daemons';
import type { SystemService } from '@mailroom/contract/system-metrics';
import { Button, Text, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatBytes, formatUptime } from '../../../lib/format.ts';
import { useRestartServices } from '../use-restart-services.ts';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'Running', 'Stopped', 'Failed'] as const;
type Filter = (typeof FILTERS)[number];

const rowId = (s: SystemService) => s.id;

const COLUMNS: ColumnDef<SystemService, unknown>[] = [
  {
    id: 'service',
    header: 'Service',
    meta: { title: true },
    cell: ({ row: { original: s } }) => (
      <>
        <Text size="sm" fw={500}>
          {s.name}
        </Text>
        <Text size="xs" c="dimmed" fw={400}>
          {s.note ?? s.description}
        </Text>
      </>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    // Not running on purpose (restarting, stopped for a restore) says so, in attention colour.
    cell: ({ row: { original: s } }) =>
      s.pending ? (
        <StatusBadge status="pending" label={DAEMON_PENDING_LABELS[s.pending]} />
      ) : (
        <StatusBadge status={s.status} />
      ),
  },
  {
    id: 'uptime',
    header: 'Uptime',
    cell: ({ row }) => (row.original.uptime ? formatUptime(row.original.uptime) : '—'),
  },
  { id: 'memory', header: 'Memory', cell: ({ row }) => formatBytes(row.original.memoryUsage) },
  { id: 'cpu', header: 'CPU', cell: ({ row }) => `${row.original.cpuUsage.toFixed(1)}%` },
  { id: 'port', header: 'Port', cell: ({ row }) => row.original.port ?? '—' },
  { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid ?? '—' },
];

/** Service Status (spec §2.8); `services` null: the monitoring service does not answer yet. */
export function ServicesTable({ services }: { services: SystemService[] | null }) {
  const [filter, setFilter] = useState<Filter>('All');
  const restart = useRestartServices(services);
  const rows = useMemo(
    () => (services ?? []).filter((s) => filter === 'All' || s.status === filter.toLowerCase()),
    [services, filter],
  );
  const button = (
    <Button
      size="xs"
      variant="default"
      disabled={!restart.available || !services}
      onClick={() => void restart.restartAll?.()}
    >
      Restart All
    </Button>
  );
  return (
    <TableCard
      title="Service Status"
      filterLabel="Filter services"
      filters={FILTERS}
      filter={filter}
      onFilter={setFilter}
      actions={
        restart.available ? (
          button
        ) : (
          <Tooltip label={restart.reason}>
            <span>{button}</span>
          </Tooltip>
        )
      }
      data={rows}
      columns={COLUMNS}
      getRowId={rowId}
      empty={
        services ? 'No services match this filter.' : 'Service states are not available from this server yet.'
      }
    />
  );
}

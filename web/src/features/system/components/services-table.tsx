import type { SystemService } from '@mailroom/contract/system-metrics';
import { Button, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatBytes, formatUptime } from '../../../lib/format.ts';
import { useRestartServices } from '../use-restart-services.ts';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'Running', 'Stopped', 'Failed'] as const;
type Filter = (typeof FILTERS)[number];

/** Service Status (spec §2.8); `services` null: the monitoring service does not answer yet. */
export function ServicesTable({ services }: { services: SystemService[] | null }) {
  const [filter, setFilter] = useState<Filter>('All');
  const restart = useRestartServices(services);
  const list = services ?? [];
  const rows = list.filter((s) => filter === 'All' || s.status === filter.toLowerCase());
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
      head={['Service', 'Status', 'Uptime', 'Memory', 'CPU', 'Port', 'PID']}
      empty={
        services ? 'No services match this filter.' : 'Service states are not available from this server yet.'
      }
    >
      {rows.map((s) => (
        <Table.Tr key={s.id}>
          <Table.Td>
            <Text size="sm" fw={500}>
              {s.name}
            </Text>
            <Text size="xs" c="dimmed">
              {s.note ?? s.description}
            </Text>
          </Table.Td>
          <Table.Td>
            <StatusBadge status={s.status} />
          </Table.Td>
          <Table.Td>{s.uptime ? formatUptime(s.uptime) : '—'}</Table.Td>
          <Table.Td>{formatBytes(s.memoryUsage)}</Table.Td>
          <Table.Td>{s.cpuUsage.toFixed(1)}%</Table.Td>
          <Table.Td>{s.port ?? '—'}</Table.Td>
          <Table.Td>{s.pid ?? '—'}</Table.Td>
        </Table.Tr>
      ))}
    </TableCard>
  );
}

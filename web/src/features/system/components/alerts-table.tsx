import type { SystemAlert } from '@mailroom/contract/system-alerts';
import { Button, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useAcknowledge } from '../use-system-admin.ts';
import { ToneBadge } from './priority-badge.tsx';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'Critical', 'Warning', 'Info', 'Acknowledged', 'Unacknowledged'] as const;
type Filter = (typeof FILTERS)[number];

function matches(a: SystemAlert, f: Filter): boolean {
  switch (f) {
    case 'All':
      return true;
    case 'Acknowledged':
      return a.acknowledged;
    case 'Unacknowledged':
      return !a.acknowledged;
    case 'Critical':
    case 'Warning':
    case 'Info':
      return a.severity === f.toLowerCase();
  }
}

/** System Alerts (spec §2.8): raised by the server from thresholds; acknowledge one or all. */
export function AlertsTable({ alerts }: { alerts: SystemAlert[] }) {
  const [filter, setFilter] = useState<Filter>('All');
  const ack = useAcknowledge();
  const open = alerts.filter((a) => !a.acknowledged).length;
  const act = (id: number | 'all') =>
    ack.mutate(id, {
      onError: (err) => notify({ type: 'error', title: 'Acknowledge failed', message: errorMessage(err) }),
    });
  const rows = alerts.filter((a) => matches(a, filter));
  return (
    <TableCard
      title={`System Alerts (${open} unacknowledged)`}
      filterLabel="Filter alerts"
      filters={FILTERS}
      filter={filter}
      onFilter={setFilter}
      actions={
        <Button size="xs" onClick={() => act('all')} disabled={open === 0 || ack.isPending}>
          Acknowledge All
        </Button>
      }
      head={['Severity', 'Alert', 'Raised', 'State', 'Actions']}
      empty={
        filter === 'All'
          ? 'All Systems Normal – No active alerts at this time.'
          : 'No alerts match this filter.'
      }
    >
      {rows.map((a) => (
        <Table.Tr key={a.id}>
          <Table.Td>
            <ToneBadge value={a.severity} />
          </Table.Td>
          <Table.Td>
            <Text size="sm" fw={500}>
              {a.title}
            </Text>
            <Text size="xs" c="dimmed">
              {a.message}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{new Date(a.timestamp).toLocaleString()}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              {a.resolvedAt ? 'Resolved' : 'Open'}
              {a.acknowledged ? ` · acknowledged by ${a.acknowledgedBy ?? 'unknown'}` : ''}
            </Text>
          </Table.Td>
          <Table.Td>
            {!a.acknowledged && (
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => act(a.id)}
                aria-label={`Acknowledge ${a.title}`}
              >
                Acknowledge
              </Button>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </TableCard>
  );
}

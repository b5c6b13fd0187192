import type { SystemAlert } from '@mailroom/contract/system-alerts';
import { Button, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
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

const rowId = (a: SystemAlert) => String(a.id);

/** System Alerts (spec §2.8): raised by the server from thresholds; acknowledge one or all. */
export function AlertsTable({ alerts }: { alerts: SystemAlert[] }) {
  const [filter, setFilter] = useState<Filter>('All');
  const ack = useAcknowledge();
  const open = alerts.filter((a) => !a.acknowledged).length;
  const { mutate } = ack;
  const act = useCallback(
    (id: number | 'all') =>
      mutate(id, {
        onError: (err) => notify({ type: 'error', title: 'Acknowledge failed', message: errorMessage(err) }),
      }),
    [mutate],
  );
  const rows = useMemo(() => alerts.filter((a) => matches(a, filter)), [alerts, filter]);
  const columns = useMemo<ColumnDef<SystemAlert, unknown>[]>(
    () => [
      {
        id: 'severity',
        header: 'Severity',
        cell: ({ row }) => <ToneBadge value={row.original.severity} />,
      },
      {
        id: 'alert',
        header: 'Alert',
        meta: { title: true },
        cell: ({ row: { original: a } }) => (
          <>
            <Text size="sm" fw={500}>
              {a.title}
            </Text>
            <Text size="xs" c="dimmed" fw={400}>
              {a.message}
            </Text>
          </>
        ),
      },
      {
        id: 'raised',
        header: 'Raised',
        cell: ({ row }) => <Text size="sm">{new Date(row.original.timestamp).toLocaleString()}</Text>,
      },
      {
        id: 'state',
        header: 'State',
        cell: ({ row: { original: a } }) => (
          <Text size="sm">
            {a.resolvedAt ? 'Resolved' : 'Open'}
            {a.acknowledged ? ` · acknowledged by ${a.acknowledgedBy ?? 'unknown'}` : ''}
          </Text>
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: a } }) =>
          !a.acknowledged && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => act(a.id)}
              aria-label={`Acknowledge ${a.title}`}
            >
              Acknowledge
            </Button>
          ),
      },
    ],
    [act],
  );
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
      data={rows}
      columns={columns}
      getRowId={rowId}
      empty={
        filter === 'All'
          ? 'All Systems Normal – No active alerts at this time.'
          : 'No alerts match this filter.'
      }
    />
  );
}

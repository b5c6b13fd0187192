import type { SystemConnection } from '@mailroom/contract/system-live';
import { Group, Text } from '@mantine/core';
import { IconEye, IconPlugConnectedX } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { DetailsModal } from './details-modal.tsx';
import { LiveFilters, LiveTable, RowAction } from './live-list.tsx';
import { useCloseConnection } from './use-system-live.ts';

type Filter = 'all' | 'established' | 'listening' | 'time-wait';
const TONE: Record<SystemConnection['state'], string> = {
  established: 'success',
  listening: 'info',
  'time-wait': 'warning',
  other: 'other',
};
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'established', label: 'Established' },
  { value: 'listening', label: 'Listening' },
  { value: 'time-wait', label: 'Time Wait' },
];
const rowId = (c: SystemConnection) => c.id;
const rowLabel = (c: SystemConnection) => `${c.localAddress} → ${c.remoteAddress}`;

export function ConnectionsTab({ connections }: { connections: SystemConnection[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [details, setDetails] = useState<SystemConnection | null>(null);
  const { mutateAsync: closeAsync } = useCloseConnection();
  // The same definition as the metrics' activeConnections: TCP sockets in ESTABLISHED.
  const established = connections.filter(
    (c) => c.state === 'established' && c.protocol.startsWith('tcp'),
  ).length;
  const rows = useMemo(() => {
    const s = search.trim().toLowerCase();
    return connections.filter(
      (c) =>
        (filter === 'all' || c.state === filter) &&
        (!s ||
          `${c.localAddress} ${c.remoteAddress} ${c.process} ${c.pid ?? ''} ${c.protocol}`
            .toLowerCase()
            .includes(s)),
    );
  }, [connections, filter, search]);

  const onClose = useCallback(
    async (c: SystemConnection) => {
      const ok = await confirmAction({
        title: 'Close connection',
        message: `Close ${c.protocol.toUpperCase()} ${c.localAddress} → ${c.remoteAddress} (${c.process})? The program on either end sees the connection reset.`,
        confirmLabel: 'Close connection',
        danger: true,
      });
      if (!ok) return;
      try {
        const r = await closeAsync(c.id);
        notify({
          type: r.closed ? 'success' : 'warning',
          title: r.closed ? 'Connection closed' : 'Connection not closed',
          message: r.message,
        });
      } catch (err) {
        notify({ type: 'error', title: 'Failed to close connection', message: errorMessage(err) });
      }
    },
    [closeAsync],
  );

  const columns = useMemo<ColumnDef<SystemConnection, unknown>[]>(
    () => [
      { id: 'protocol', header: 'Protocol', cell: ({ row }) => row.original.protocol.toUpperCase() },
      {
        id: 'local',
        header: 'Local Address',
        meta: { title: true },
        cell: ({ row }) => row.original.localAddress,
      },
      { id: 'remote', header: 'Remote Address', cell: ({ row }) => row.original.remoteAddress },
      {
        id: 'state',
        header: 'State',
        cell: ({ row: { original: c } }) => (
          <StatusBadge
            status={TONE[c.state]}
            label={c.state === 'other' ? c.kernelState.toLowerCase() : c.state}
            miw={110}
          />
        ),
      },
      {
        id: 'process',
        header: 'Process',
        cell: ({ row: { original: c } }) => (
          <>
            {c.process}
            {c.pid !== null && (
              <Text span size="xs" c="dimmed">
                {' '}
                ({c.pid})
              </Text>
            )}
          </>
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: c } }) => (
          <Group gap={4} wrap="nowrap">
            <RowAction
              tip="View details"
              label={`View details of ${c.localAddress} → ${c.remoteAddress}`}
              icon={<IconEye size={16} aria-hidden />}
              onClick={() => setDetails(c)}
            />
            <RowAction
              tip="Close"
              label={`Close ${c.localAddress} → ${c.remoteAddress}`}
              icon={<IconPlugConnectedX size={16} aria-hidden />}
              danger
              onClick={() => void onClose(c)}
            />
          </Group>
        ),
      },
    ],
    [onClose],
  );

  return (
    <>
      <LiveFilters
        label="connections"
        filterLabel="Connection filter"
        filters={FILTERS}
        filter={filter}
        onFilter={setFilter}
        search={search}
        onSearch={setSearch}
      />
      <Text size="xs" c="dimmed" mb="xs" data-testid="connections-summary">
        {established} established TCP connection{established === 1 ? '' : 's'} (the “active connections”
        figure) among {connections.length} sockets listed (listening, time-wait and UDP included).
      </Text>
      <LiveTable
        label="Network connections"
        rows={rows}
        columns={columns}
        getRowId={rowId}
        getRowLabel={rowLabel}
        emptyText="No connections match the filter."
      />
      <DetailsModal
        title="Connection details"
        onClose={() => setDetails(null)}
        rows={
          details && [
            ['Protocol', details.protocol.toUpperCase()],
            ['Local address', details.localAddress],
            ['Remote address', details.remoteAddress],
            ['State', `${details.state} (${details.kernelState})`],
            ['Process', details.process],
            ['PID', details.pid === null ? '—' : String(details.pid)],
            ['Seen at', new Date(details.timestamp).toLocaleString()],
          ]
        }
      />
    </>
  );
}

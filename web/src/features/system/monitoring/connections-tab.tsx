import type { SystemConnection } from '@mailroom/contract/system-live';
import {
  ActionIcon,
  Group,
  ScrollArea,
  SegmentedControl,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconEye, IconPlugConnectedX, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { DetailsModal } from './details-modal.tsx';
import { useCloseConnection } from './use-system-live.ts';

type Filter = 'all' | 'established' | 'listening' | 'time-wait';
const TONE: Record<SystemConnection['state'], string> = {
  established: 'success',
  listening: 'info',
  'time-wait': 'warning',
  other: 'other',
};
const SHOWN = 300;

export function ConnectionsTab({ connections }: { connections: SystemConnection[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [details, setDetails] = useState<SystemConnection | null>(null);
  const close = useCloseConnection();
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

  const onClose = async (c: SystemConnection) => {
    const ok = await confirmAction({
      title: 'Close connection',
      message: `Close ${c.protocol.toUpperCase()} ${c.localAddress} → ${c.remoteAddress} (${c.process})? The program on either end sees the connection reset.`,
      confirmLabel: 'Close connection',
      danger: true,
    });
    if (!ok) return;
    try {
      const r = await close.mutateAsync(c.id);
      notify({
        type: r.closed ? 'success' : 'warning',
        title: r.closed ? 'Connection closed' : 'Connection not closed',
        message: r.message,
      });
    } catch (err) {
      notify({ type: 'error', title: 'Failed to close connection', message: errorMessage(err) });
    }
  };

  return (
    <>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Connection filter"
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'established', label: 'Established' },
            { value: 'listening', label: 'Listening' },
            { value: 'time-wait', label: 'Time Wait' },
          ]}
        />
        <TextInput
          aria-label="Search connections"
          placeholder="Search connections..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      </Group>
      <ScrollArea.Autosize mah={640} type="auto">
        <Table striped highlightOnHover stickyHeader miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Protocol</Table.Th>
              <Table.Th>Local Address</Table.Th>
              <Table.Th>Remote Address</Table.Th>
              <Table.Th miw={130}>State</Table.Th>
              <Table.Th>Process</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" ta="center" py="md">
                    No connections match the filter.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.slice(0, SHOWN).map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.protocol.toUpperCase()}</Table.Td>
                <Table.Td>{c.localAddress}</Table.Td>
                <Table.Td>{c.remoteAddress}</Table.Td>
                <Table.Td>
                  <StatusBadge
                    status={TONE[c.state]}
                    label={c.state === 'other' ? c.kernelState.toLowerCase() : c.state}
                  />
                </Table.Td>
                <Table.Td>
                  {c.process}
                  {c.pid !== null && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      ({c.pid})
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="View details">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`View details of ${c.localAddress} → ${c.remoteAddress}`}
                        onClick={() => setDetails(c)}
                      >
                        <IconEye size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Close">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Close ${c.localAddress} → ${c.remoteAddress}`}
                        onClick={() => void onClose(c)}
                      >
                        <IconPlugConnectedX size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {rows.length > SHOWN && (
        <Text size="sm" c="dimmed" mt="xs">
          Showing the first {SHOWN} of {rows.length}; search to narrow the list.
        </Text>
      )}
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

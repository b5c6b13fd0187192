import type { SystemProcess } from '@mailroom/contract/system-live';
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
import { IconEye, IconSearch, IconSkull } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { DetailsModal } from './details-modal.tsx';
import { useKill } from './use-system-live.ts';

/** High CPU: at least a quarter of one core; high memory: at least 5 % of the machine's. */
export const HIGH_CPU = 25;
export const HIGH_MEMORY = 5;
const SHOWN = 300;

type Filter = 'all' | 'high-cpu' | 'high-memory' | 'running' | 'sleeping';
const TONE: Record<SystemProcess['status'], string> = {
  running: 'success',
  sleeping: 'info',
  stopped: 'error',
  other: 'warning',
};

export function filterProcesses(list: SystemProcess[], filter: Filter, search: string): SystemProcess[] {
  const s = search.trim().toLowerCase();
  return list
    .filter((p) =>
      filter === 'high-cpu'
        ? p.cpu >= HIGH_CPU
        : filter === 'high-memory'
          ? p.memory >= HIGH_MEMORY
          : filter === 'running' || filter === 'sleeping'
            ? p.status === filter
            : true,
    )
    .filter(
      (p) =>
        !s ||
        p.name.toLowerCase().includes(s) ||
        p.command.toLowerCase().includes(s) ||
        p.user.toLowerCase().includes(s) ||
        String(p.pid) === s,
    )
    .sort((a, b) => b.cpu - a.cpu || b.memory - a.memory || a.pid - b.pid);
}

export function ProcessesTab({ processes }: { processes: SystemProcess[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const [details, setDetails] = useState<SystemProcess | null>(null);
  const kill = useKill();
  const rows = useMemo(() => filterProcesses(processes, filter, search), [processes, filter, search]);

  const onKill = async (p: SystemProcess) => {
    const ok = await confirmAction({
      title: 'Kill process',
      message: `Send SIGTERM to ${p.name} (PID ${p.pid})? It is asked to end; unsaved work in it is lost.`,
      confirmLabel: 'Kill',
      danger: true,
    });
    if (!ok) return;
    try {
      const r = await kill.mutateAsync({ pid: p.pid, signal: 'SIGTERM' });
      if (r.exited) {
        notify({ type: 'success', title: 'Process ended', message: r.message });
        return;
      }
      const force = await confirmAction({
        title: 'Process still running',
        message: `${p.name} (PID ${p.pid}) did not end after SIGTERM. Send SIGKILL? It ends at once, without cleaning up.`,
        confirmLabel: 'Force kill',
        danger: true,
      });
      if (!force) return;
      const k = await kill.mutateAsync({ pid: p.pid, signal: 'SIGKILL' });
      notify({
        type: k.exited ? 'success' : 'warning',
        title: k.exited ? 'Process ended' : 'Process still running',
        message: k.message,
      });
    } catch (err) {
      notify({ type: 'error', title: 'Failed to kill process', message: errorMessage(err) });
    }
  };

  return (
    <>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Process filter"
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'high-cpu', label: 'High CPU' },
            { value: 'high-memory', label: 'High Memory' },
            { value: 'running', label: 'Running' },
            { value: 'sleeping', label: 'Sleeping' },
          ]}
        />
        <TextInput
          aria-label="Search processes"
          placeholder="Search processes..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      </Group>
      <ScrollArea.Autosize mah={640} type="auto">
        <Table striped highlightOnHover stickyHeader miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>PID</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>User</Table.Th>
              <Table.Th>CPU</Table.Th>
              <Table.Th>Memory</Table.Th>
              <Table.Th miw={120}>Status</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" ta="center" py="md">
                    No processes match the filter.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.slice(0, SHOWN).map((p) => (
              <Table.Tr key={p.pid} data-testid={`process-${p.pid}`}>
                <Table.Td>{p.pid}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {p.name}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1} maw={320} title={p.command}>
                    {p.command}
                  </Text>
                </Table.Td>
                <Table.Td>{p.user}</Table.Td>
                <Table.Td>{p.cpu.toFixed(1)}%</Table.Td>
                <Table.Td>{p.memory.toFixed(1)}%</Table.Td>
                <Table.Td>
                  <StatusBadge status={TONE[p.status]} label={p.status} />
                </Table.Td>
                <Table.Td>{new Date(p.startTime).toLocaleString()}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="View details">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`View details of ${p.name} (PID ${p.pid})`}
                        onClick={() => setDetails(p)}
                      >
                        <IconEye size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Kill">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Kill ${p.name} (PID ${p.pid})`}
                        onClick={() => void onKill(p)}
                      >
                        <IconSkull size={16} aria-hidden />
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
        title={details ? `Process ${details.name} (PID ${details.pid})` : ''}
        onClose={() => setDetails(null)}
        rows={
          details && [
            ['PID', String(details.pid)],
            ['Parent PID', String(details.ppid)],
            ['Name', details.name],
            ['User', details.user],
            ['Status', details.status],
            ['CPU', `${details.cpu.toFixed(1)}%`],
            ['Memory', `${details.memory.toFixed(1)}% (${formatBytes(details.rss)})`],
            ['Threads', String(details.threads)],
            ['Started', new Date(details.startTime).toLocaleString()],
            ['Command', details.command],
          ]
        }
      />
    </>
  );
}

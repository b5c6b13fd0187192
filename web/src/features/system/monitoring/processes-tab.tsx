import type { SystemProcess } from '@mailroom/contract/system-live';
import { Group, Text } from '@mantine/core';
import { IconEye, IconSkull } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { DetailsModal } from './details-modal.tsx';
import { LiveFilters, LiveTable, RowAction } from './live-list.tsx';
import { useKill } from './use-system-live.ts';

/** High CPU: at least a quarter of one core; high memory: at least 5 % of the machine's. */
export const HIGH_CPU = 25;
export const HIGH_MEMORY = 5;
/**
 * Rows per page. The list is one snapshot of /proc, paged here: pages asked of the server one by one
 * would come from different snapshots (rows moving between pages as CPU figures change).
 */
export const PAGE_SIZE = 50;

type Filter = 'all' | 'high-cpu' | 'high-memory' | 'running' | 'sleeping';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'high-cpu', label: 'High CPU' },
  { value: 'high-memory', label: 'High Memory' },
  { value: 'running', label: 'Running' },
  { value: 'sleeping', label: 'Sleeping' },
];
const rowId = (p: SystemProcess) => String(p.pid);
const rowLabel = (p: SystemProcess) => `${p.name} (PID ${p.pid})`;
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
  const { mutateAsync: killAsync } = useKill();
  const rows = useMemo(() => filterProcesses(processes, filter, search), [processes, filter, search]);

  const onKill = useCallback(
    async (p: SystemProcess) => {
      const ok = await confirmAction({
        title: 'Kill process',
        message: `Send SIGTERM to ${p.name} (PID ${p.pid})? It is asked to end; unsaved work in it is lost.`,
        confirmLabel: 'Kill',
        danger: true,
      });
      if (!ok) return;
      try {
        const r = await killAsync({ pid: p.pid, signal: 'SIGTERM' });
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
        const k = await killAsync({ pid: p.pid, signal: 'SIGKILL' });
        notify({
          type: k.exited ? 'success' : 'warning',
          title: k.exited ? 'Process ended' : 'Process still running',
          message: k.message,
        });
      } catch (err) {
        notify({ type: 'error', title: 'Failed to kill process', message: errorMessage(err) });
      }
    },
    [killAsync],
  );

  const columns = useMemo<ColumnDef<SystemProcess, unknown>[]>(
    () => [
      { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
      {
        id: 'name',
        header: 'Name',
        meta: { title: true },
        cell: ({ row: { original: p } }) => (
          <>
            <Text size="sm" fw={500}>
              {p.name}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={1} maw={320} title={p.command}>
              {p.command}
            </Text>
          </>
        ),
      },
      { id: 'user', header: 'User', cell: ({ row }) => row.original.user },
      { id: 'cpu', header: 'CPU', cell: ({ row }) => `${row.original.cpu.toFixed(1)}%` },
      { id: 'memory', header: 'Memory', cell: ({ row }) => `${row.original.memory.toFixed(1)}%` },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: p } }) => <StatusBadge status={TONE[p.status]} label={p.status} />,
      },
      {
        id: 'started',
        header: 'Started',
        cell: ({ row }) => new Date(row.original.startTime).toLocaleString(),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: p } }) => (
          <Group gap={4} wrap="nowrap">
            <RowAction
              tip="View details"
              label={`View details of ${p.name} (PID ${p.pid})`}
              icon={<IconEye size={16} aria-hidden />}
              onClick={() => setDetails(p)}
            />
            <RowAction
              tip="Kill"
              label={`Kill ${p.name} (PID ${p.pid})`}
              icon={<IconSkull size={16} aria-hidden />}
              danger
              onClick={() => void onKill(p)}
            />
          </Group>
        ),
      },
    ],
    [onKill],
  );

  return (
    <>
      <LiveFilters
        label="processes"
        filterLabel="Process filter"
        filters={FILTERS}
        filter={filter}
        onFilter={setFilter}
        search={search}
        onSearch={setSearch}
      />
      <LiveTable
        // A new filter or search starts at page 1.
        key={`${filter}\n${search}`}
        label="Processes"
        pageSize={PAGE_SIZE}
        noun="processes"
        rows={rows}
        columns={columns}
        getRowId={rowId}
        getRowLabel={rowLabel}
        emptyText="No processes match the filter."
      />
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

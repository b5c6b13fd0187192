import {
  LOG_DOWNLOAD_PATH,
  type LogEntry,
  type LogLevel,
  type LogSource,
} from '@mailroom/contract/system-live';
import { ActionIcon, Button, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconEye, IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useLogFiles } from '../use-log-files.ts';
import { DetailsModal } from './details-modal.tsx';
import { type Every, type LogFilter, useLogs } from './use-system-live.ts';

const SOURCES = [
  { value: 'mail', label: 'Mail' },
  { value: 'dns', label: 'DNS' },
  { value: 'web', label: 'Web' },
  { value: 'system', label: 'System' },
  { value: 'mailroom', label: 'Mailroom' },
  { value: 'apps', label: 'Applications' },
];
const LEVELS = [
  { value: 'error', label: 'Error' },
  { value: 'warning', label: 'Warning' },
  { value: 'info', label: 'Info' },
  { value: 'debug', label: 'Debug' },
];
const SERVICES = [
  { value: 'apache', label: 'Apache' },
  { value: 'postgresql', label: 'PostgreSQL' },
  { value: 'postfix', label: 'Postfix' },
  { value: 'dovecot', label: 'Dovecot' },
  { value: 'bind', label: 'BIND' },
  { value: 'rspamd', label: 'Rspamd' },
  { value: 'mailroom', label: 'Mailroom' },
  { value: 'system', label: 'System' },
];
const TONE: Record<LogLevel, string> = { error: 'error', warning: 'warning', info: 'info', debug: 'info' };

function downloadEntry(e: LogEntry) {
  const blob = new Blob(
    [`${e.timestamp} ${e.level.toUpperCase()} ${e.service}${e.pid ? `[${e.pid}]` : ''}: ${e.message}\n`],
    { type: 'text/plain' },
  );
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `log-entry-${e.timestamp.replace(/[:.]/g, '-')}.txt`;
  a.click();
  URL.revokeObjectURL(a.href);
}

export function LogsTab({ every, onCount }: { every: Every; onCount?: (n: number) => void }) {
  const [source, setSource] = useState<LogSource>('mail');
  const [level, setLevel] = useState<LogLevel | null>(null);
  const [service, setService] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [details, setDetails] = useState<LogEntry | null>(null);
  const filter: LogFilter = {
    source,
    level: level ?? undefined,
    service: service ?? undefined,
    search: debounced.trim() || undefined,
  };
  const logs = useLogs(filter, every);
  // Applications: the service is the application (those with a log file here).
  const files = useLogFiles();
  const appNames = [
    ...new Set((files.data?.files ?? []).flatMap((f) => (f.log === 'apps' && f.app ? [f.app] : []))),
  ].sort();
  const services = source === 'apps' ? appNames.map((n) => ({ value: n, label: n })) : SERVICES;
  const entries = logs.data?.pages.flatMap((p) => p.entries) ?? [];
  useEffect(() => onCount?.(entries.length), [entries.length, onCount]);
  const origin = logs.data?.pages[0]?.origin;
  const columns = useMemo<ColumnDef<LogEntry, unknown>[]>(
    () => [
      {
        id: 'time',
        header: 'Time',
        cell: ({ row }) => (
          <span style={{ whiteSpace: 'nowrap' }}>{new Date(row.original.timestamp).toLocaleString()}</span>
        ),
        meta: { label: 'Time' },
      },
      {
        id: 'level',
        header: 'Level',
        cell: ({ row }) => <StatusBadge status={TONE[row.original.level]} label={row.original.level} />,
        meta: { label: 'Level' },
      },
      { id: 'service', header: 'Service', accessorFn: (e) => e.service },
      {
        id: 'message',
        header: 'Message',
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {row.original.message}
          </Text>
        ),
        meta: { label: 'Message', title: true },
      },
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="View details">
              <ActionIcon
                variant="subtle"
                aria-label="View details of the log entry"
                onClick={() => setDetails(row.original)}
              >
                <IconEye size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Download">
              <ActionIcon
                variant="subtle"
                aria-label="Download the log entry"
                onClick={() => downloadEntry(row.original)}
              >
                <IconDownload size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
        meta: { label: 'Actions', actions: true },
      },
    ],
    [],
  );
  const qs = new URLSearchParams({ source });
  if (filter.level) qs.set('level', filter.level);
  if (filter.service) qs.set('service', filter.service);
  if (filter.search) qs.set('search', filter.search);

  return (
    <>
      <Group mb="sm" wrap="wrap" align="flex-end">
        <Select
          label="Log"
          data={SOURCES}
          value={source}
          onChange={(v) => {
            if (!v) return;
            // The services of one log are not those of another (an application's name).
            if ((v === 'apps') !== (source === 'apps')) setService(null);
            setSource(v as LogSource);
          }}
          allowDeselect={false}
          w={140}
        />
        <Select
          label="Level"
          placeholder="All levels"
          data={LEVELS}
          value={level}
          onChange={(v) => setLevel(v as LogLevel | null)}
          clearable
          w={150}
        />
        <Select
          label="Service"
          placeholder="All services"
          data={services}
          value={service}
          onChange={setService}
          clearable
          w={160}
        />
        <TextInput
          label="Search"
          placeholder="Search logs..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Button
          component="a"
          href={`${LOG_DOWNLOAD_PATH}?${qs.toString()}`}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          Download
        </Button>
      </Group>
      {origin && (
        <Text size="xs" c="dimmed" mb="xs">
          From {origin}
        </Text>
      )}
      {logs.error && <Text c="red">{errorMessage(logs.error)}</Text>}
      <DataTable
        label="Log entries"
        data={entries}
        columns={columns}
        getRowId={(e) => e.id}
        emptyText={logs.isLoading ? '' : 'No log entries match the filter.'}
        minWidth={760}
      />
      {logs.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button
            variant="default"
            loading={logs.isFetchingNextPage}
            onClick={() => void logs.fetchNextPage()}
          >
            Load older entries
          </Button>
        </Group>
      )}
      <DetailsModal
        title="Log entry"
        onClose={() => setDetails(null)}
        rows={
          details && [
            ['Time', new Date(details.timestamp).toLocaleString()],
            ['Level', details.level],
            ['Service', details.service],
            ['PID', details.pid === null ? '—' : String(details.pid)],
            ['Source', details.source],
            ['Message', details.message],
          ]
        }
      />
    </>
  );
}

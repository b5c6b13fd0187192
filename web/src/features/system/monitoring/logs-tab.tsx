import {
  LOG_DOWNLOAD_PATH,
  type LogEntry,
  type LogLevel,
  type LogSource,
} from '@mailroom/contract/system-live';
import {
  ActionIcon,
  Button,
  Group,
  ScrollArea,
  Select,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconEye, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
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
      <ScrollArea.Autosize mah={640} type="auto">
        <Table striped highlightOnHover stickyHeader miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th miw={110}>Level</Table.Th>
              <Table.Th>Service</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.length === 0 && !logs.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    No log entries match the filter.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{new Date(e.timestamp).toLocaleString()}</Table.Td>
                <Table.Td>
                  <StatusBadge status={TONE[e.level]} label={e.level} />
                </Table.Td>
                <Table.Td>{e.service}</Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                    {e.message}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="View details">
                      <ActionIcon
                        variant="subtle"
                        aria-label="View details of the log entry"
                        onClick={() => setDetails(e)}
                      >
                        <IconEye size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Download">
                      <ActionIcon
                        variant="subtle"
                        aria-label="Download the log entry"
                        onClick={() => downloadEntry(e)}
                      >
                        <IconDownload size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
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

import type { AuditEntry } from '@mailroom/contract/audit';
import { Button, Card, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { parseAuditDetails } from './audit-details.ts';
import { AuditTable, when } from './audit-table.tsx';
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  type AuditPosition,
  useAuditActors,
  useAuditLog,
} from './use-audit.ts';

const EMPTY: AuditFilters = { actor: '', action: '', target: '', from: '', to: '' };

/** Action areas for the "what" filter (a prefix of the action name). */
const AREAS = [
  { value: 'auth.', label: 'Sign-in and sessions (auth.)' },
  { value: 'mail.', label: 'Mail (mail.)' },
  { value: 'mail.settings.', label: 'Mail settings (mail.settings.)' },
  { value: 'dns.', label: 'DNS (dns.)' },
  { value: 'dns.settings.', label: 'DNS settings (dns.settings.)' },
  { value: 'ssl.', label: 'SSL (ssl.)' },
  { value: 'system.', label: 'System (system.)' },
  { value: 'jobs.', label: 'Jobs (jobs.)' },
];

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const { changes, other } = parseAuditDetails(entry.details);
  return (
    <Stack gap="xs">
      <Text size="sm">
        <b>When:</b> {when(entry.at)} · <b>From:</b> {entry.ip ?? 'unknown address'}
      </Text>
      {changes.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table withTableBorder striped aria-label={`Changes of ${entry.action}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={c.field}>
                  <Table.Td>{c.field}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.before}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.after}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {other.map(([k, v]) => (
        <Text key={k} size="sm" style={{ overflowWrap: 'anywhere' }}>
          <b>{k}:</b> {v}
        </Text>
      ))}
      {changes.length === 0 && other.length === 0 && (
        <Text size="sm" c="dimmed">
          No further details.
        </Text>
      )}
    </Stack>
  );
}

/** Issue 12: the audit log — who did what to what, when, with before/after of settings. */
export default function AuditPage() {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY);
  const [typedTarget, setTypedTarget] = useState('');
  const [target] = useDebouncedValue(typedTarget, 300);
  const applied = { ...filters, target };
  const [pos, setPos] = useState<AuditPosition>({ page: 1 });
  const [opened, setOpened] = useState<AuditEntry | null>(null);
  const log = useAuditLog(applied, pos);
  const actors = useAuditActors();
  const set = (k: keyof AuditFilters) => (v: string | null) => setFilters((f) => ({ ...f, [k]: v ?? '' }));
  // New filters start at page 1.
  const key = JSON.stringify(applied);
  useEffect(() => setPos({ page: 1 }), [key]);
  const entries = log.data?.entries ?? [];
  const total = log.data?.total;
  const capped = log.data?.totalCapped === true;
  const filtered = Object.values(applied).some((v) => v !== '');
  // The next page follows the cursor (entries older than the last one shown); a jump reads by offset.
  const setPage = (to: number) =>
    setPos(
      to === pos.page + 1 && log.data?.nextCursor ? { page: to, cursor: log.data.nextCursor } : { page: to },
    );

  return (
    <>
      <PageHeader
        title="Audit Log"
        breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'Audit Log' }]}
        subtitle="Every change made through the console or the API: who, what, on what, when, and the outcome"
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void log.refetch()}
            loading={log.isRefetching}
          >
            Refresh
          </Button>
        }
      />
      <Card withBorder radius="md" padding="md" mb="md" component="section" aria-label="Filters">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <Select
            label="Who"
            placeholder="Any administrator"
            data={actors.data ?? []}
            value={filters.actor || null}
            onChange={set('actor')}
            clearable
            searchable
          />
          <Select
            label="Action"
            placeholder="Any action"
            data={AREAS}
            value={filters.action || null}
            onChange={set('action')}
            clearable
          />
          <TextInput
            label="Target"
            placeholder="Starts with…"
            value={typedTarget}
            onChange={(e) => setTypedTarget(e.currentTarget.value)}
          />
          <TextInput
            label="From"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => set('from')(e.currentTarget.value)}
          />
          <TextInput
            label="To"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => set('to')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === undefined || log.isFetching
              ? '\u00a0'
              : `${total}${capped ? '+' : ''} ${total === 1 ? 'entry' : 'entries'}${filtered ? ' match' : ''}`}
          </Text>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFilterOff size={14} aria-hidden />}
            disabled={!filtered}
            onClick={() => {
              setFilters(EMPTY);
              setTypedTarget('');
            }}
          >
            Clear filters
          </Button>
        </Group>
      </Card>
      <LoadState
        loading={log.isPending}
        error={log.error ? errorMessage(log.error) : null}
        errorTitle="Failed to load the audit log"
        loadingLabel="Loading the audit log..."
        onRetry={() => void log.refetch()}
      >
        <Card withBorder radius="md" padding="md">
          <AuditTable
            entries={entries}
            emptyText={filtered ? 'No entries match these filters' : 'No entries yet'}
            onDetails={setOpened}
            pager={
              // No total while new filters load: not the previous filters' count.
              log.isPlaceholderData || total === undefined
                ? undefined
                : {
                    page: pos.page,
                    pageSize: AUDIT_PAGE_SIZE,
                    total,
                    capped,
                    onPage: setPage,
                    noun: 'entries',
                  }
            }
          />
        </Card>
      </LoadState>
      <Modal
        opened={opened !== null}
        onClose={() => setOpened(null)}
        title={opened ? `${opened.action}${opened.target ? ` · ${opened.target}` : ''}` : ''}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {opened && (
          <Stack gap="xs">
            <Text size="sm">
              <b>Who:</b> {opened.actor ?? 'system'} · {opened.outcome === 'success' ? 'Success' : 'Failed'}
            </Text>
            <EntryDetails entry={opened} />
          </Stack>
        )}
      </Modal>
    </>
  );
}

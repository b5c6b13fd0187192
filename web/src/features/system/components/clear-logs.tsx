import type { ClearableLog, LogFile } from '@mailroom/contract/system-live';
import { Button, Card, Checkbox, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useClearLogs } from '../use-clear-logs.ts';
import { useLogFiles } from '../use-log-files.ts';

export { useLogFiles };

const LOGS: { log: ClearableLog; label: string }[] = [
  { log: 'mail', label: 'Mail log (Postfix, Dovecot)' },
  { log: 'dns', label: 'DNS log (BIND)' },
  { log: 'mailroom', label: 'Mailroom’s own log' },
  { log: 'apps', label: 'Application logs' },
];
const LABEL = Object.fromEntries(LOGS.map((l) => [l.log, l.label])) as Record<ClearableLog, string>;

const rowId = (f: LogFile) => f.path;
const COLUMNS: ColumnDef<LogFile, unknown>[] = [
  {
    id: 'log',
    header: 'Log',
    cell: ({ row: { original: f } }) => (f.app ? `${LABEL[f.log]}: ${f.app}` : LABEL[f.log]),
  },
  {
    id: 'path',
    header: 'File',
    meta: { title: true },
    cell: ({ row: { original: f } }) => (
      <span style={{ overflowWrap: 'anywhere' }}>
        {f.path}
        {f.rotated && (
          <Text span size="xs" c="dimmed">
            {' '}
            (rotated)
          </Text>
        )}
      </span>
    ),
  },
  {
    id: 'size',
    header: 'Size',
    cell: ({ row }) => <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(row.original.size)}</span>,
  },
  {
    id: 'modified',
    header: 'Modified',
    cell: ({ row }) => (
      <span style={{ whiteSpace: 'nowrap' }}>{new Date(row.original.modified).toLocaleString()}</span>
    ),
  },
];

/** What Clear Logs does, said wherever it is offered. */
export const CLEAR_LOGS_SCOPE =
  'Clear Logs empties the current file of each chosen log (its program keeps writing to it) and deletes its rotated copies. journald’s store, the web server’s and the system’s logs are never touched.';

/** The log files Mailroom writes or manages, and Clear Logs (spec §2.10). */
export function ClearLogsCard() {
  const files = useLogFiles();
  const [opened, ctl] = useDisclosure(false);
  const [chosen, setChosen] = useState<ClearableLog[]>([]);
  useEffect(() => {
    if (opened) setChosen([]);
  }, [opened]);
  const clear = useClearLogs();
  const list = files.data?.files ?? [];
  const sizeOf = (log: ClearableLog) => list.filter((f) => f.log === log).reduce((a, f) => a + f.size, 0);
  const countOf = (log: ClearableLog) => list.filter((f) => f.log === log).length;
  const selected = chosen.reduce((a, l) => a + sizeOf(l), 0);

  const onClear = async () => {
    const ok = await confirmAction({
      title: 'Clear Logs',
      message: `Clear ${chosen.map((l) => LABEL[l]).join(', ')} (${formatBytes(selected)})? The entries are gone for good.`,
      confirmLabel: 'Clear Logs',
      danger: true,
    });
    if (!ok) return;
    try {
      const a = await clear.mutateAsync(chosen);
      notify({
        type: a.errors.length ? 'warning' : 'success',
        title: 'Logs cleared',
        message: `${a.emptied} file${a.emptied === 1 ? '' : 's'} emptied, ${a.deleted} rotated cop${a.deleted === 1 ? 'y' : 'ies'} deleted, ${formatBytes(a.freedBytes)} freed.${a.errors.length ? ` Not cleared: ${a.errors.join('; ')}` : ''}`,
      });
      ctl.close();
    } catch (err) {
      notify({ type: 'error', title: 'Clear Logs failed', message: errorMessage(err) });
    }
  };

  return (
    <Card withBorder radius="md" padding="md" mb="md">
      <Group justify="space-between" align="flex-start" mb="xs" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            Log files
          </Title>
          <Text size="sm" c="dimmed" maw={720}>
            {CLEAR_LOGS_SCOPE}
          </Text>
        </div>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={ctl.open}
          disabled={!files.data}
        >
          Clear Logs
        </Button>
      </Group>
      {files.error && <Text c="red">{errorMessage(files.error)}</Text>}
      <DataTable
        label="Log files"
        data={list}
        columns={COLUMNS}
        getRowId={rowId}
        emptyText={files.data ? 'No log files of Mailroom’s here yet.' : ''}
        minWidth={640}
      />
      <Modal opened={opened} onClose={ctl.close} title="Clear Logs" centered size="lg">
        <Stack>
          <Text size="sm">{CLEAR_LOGS_SCOPE}</Text>
          {LOGS.map((l) => (
            <Checkbox
              key={l.log}
              label={`${l.label}: ${formatBytes(sizeOf(l.log))} in ${countOf(l.log)} file${countOf(l.log) === 1 ? '' : 's'}`}
              checked={chosen.includes(l.log)}
              disabled={countOf(l.log) === 0}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setChosen((c) => (on ? [...c, l.log] : c.filter((x) => x !== l.log)));
              }}
            />
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={ctl.close}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={chosen.length === 0}
              loading={clear.isPending}
              onClick={() => void onClear()}
            >
              Clear {formatBytes(selected)}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

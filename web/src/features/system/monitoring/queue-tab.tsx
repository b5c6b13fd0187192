import type { QueueMessage } from '@mailroom/contract/system-live';
import { Alert, Button, Code, Group, Modal, Text } from '@mantine/core';
import { IconEye, IconRefreshDot, IconSend, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { LiveTable, RowAction } from './live-list.tsx';
import { useQueueMessage } from './use-queue-message.ts';
import { useQueueAction } from './use-system-live.ts';

const rowId = (m: QueueMessage) => m.id;
const rowLabel = (m: QueueMessage) => `message ${m.id}`;

export function QueueTab({
  messages,
  unavailable,
}: {
  messages: QueueMessage[];
  unavailable: string | null;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const text = useQueueMessage(shown);
  const act = useQueueAction();
  const { mutateAsync: actAsync } = act;

  const run = useCallback(
    async (v: { id?: string; action: 'delete' | 'requeue' | 'flush' }, title: string) => {
      try {
        const r = await actAsync(v);
        notify({ type: r.ok ? 'success' : 'error', title, message: r.message });
      } catch (err) {
        notify({ type: 'error', title: `${title} failed`, message: errorMessage(err) });
      }
    },
    [actAsync],
  );
  const onDelete = useCallback(
    async (m: QueueMessage) => {
      const ok = await confirmAction({
        title: 'Delete queued message',
        message: `Delete message ${m.id} from ${m.sender || '<>'}? It is never delivered.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (ok) await run({ id: m.id, action: 'delete' }, 'Message deleted');
    },
    [run],
  );
  const columns = useMemo<ColumnDef<QueueMessage, unknown>[]>(
    () => [
      {
        id: 'id',
        header: 'Queue ID',
        meta: { title: true },
        cell: ({ row }) => <Code>{row.original.id}</Code>,
      },
      { id: 'queue', header: 'Queue', cell: ({ row }) => row.original.queue },
      {
        id: 'arrived',
        header: 'Arrived',
        cell: ({ row }) => new Date(row.original.arrivalTime).toLocaleString(),
      },
      { id: 'sender', header: 'Sender', cell: ({ row }) => row.original.sender || '<>' },
      {
        id: 'recipients',
        header: 'Recipients',
        cell: ({ row }) =>
          row.original.recipients.map((r) => (
            <Text key={r.address} size="sm">
              {r.address}
              {r.reason && (
                <Text span size="xs" c="dimmed">
                  {' '}
                  — {r.reason}
                </Text>
              )}
            </Text>
          )),
      },
      { id: 'size', header: 'Size', cell: ({ row }) => formatBytes(row.original.size) },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: m } }) => (
          <Group gap={4} wrap="nowrap">
            <RowAction
              tip="View message"
              label={`View message ${m.id}`}
              icon={<IconEye size={16} aria-hidden />}
              onClick={() => setShown(m.id)}
            />
            <RowAction
              tip="Requeue"
              label={`Requeue message ${m.id}`}
              icon={<IconRefreshDot size={16} aria-hidden />}
              onClick={() => void run({ id: m.id, action: 'requeue' }, 'Message requeued')}
            />
            <RowAction
              tip="Delete"
              label={`Delete message ${m.id}`}
              icon={<IconTrash size={16} aria-hidden />}
              danger
              onClick={() => void onDelete(m)}
            />
          </Group>
        ),
      },
    ],
    [run, onDelete],
  );

  return (
    <>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          Postfix&apos;s queue: messages waiting for delivery.
        </Text>
        <Button
          leftSection={<IconSend size={16} aria-hidden />}
          variant="default"
          loading={act.isPending}
          onClick={() => void run({ action: 'flush' }, 'Queue flushed')}
        >
          Flush Queue
        </Button>
      </Group>
      {unavailable && (
        <Alert
          color="yellow"
          mb="sm"
          title="Queue not readable"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {unavailable}
        </Alert>
      )}
      <LiveTable
        label="Mail queue"
        rows={messages}
        columns={columns}
        getRowId={rowId}
        getRowLabel={rowLabel}
        emptyText="The mail queue is empty."
        // Every queued message is listed (the queue has no search box to narrow it).
        limit={Infinity}
      />
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={`Message ${shown ?? ''}`}
        size="xl"
        centered
      >
        {text.isLoading && <Text c="dimmed">Loading…</Text>}
        {text.error && <Text c="red">{errorMessage(text.error)}</Text>}
        {text.data && (
          <Code block style={{ maxHeight: '60vh', overflow: 'auto' }}>
            {text.data.text}
          </Code>
        )}
      </Modal>
    </>
  );
}

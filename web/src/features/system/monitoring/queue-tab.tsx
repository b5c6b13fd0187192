import { systemLiveRoutes, type QueueMessage } from '@mailroom/contract/system-live';
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  Group,
  Modal,
  ScrollArea,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconEye, IconRefreshDot, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useQueueAction } from './use-system-live.ts';

export function QueueTab({
  messages,
  unavailable,
}: {
  messages: QueueMessage[];
  unavailable: string | null;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const text = useQuery({
    queryKey: ['system', 'live', 'queue', 'message', shown],
    queryFn: () => apiCall(systemLiveRoutes.queueMessage, { params: { id: shown! } }),
    enabled: shown !== null,
  });
  const act = useQueueAction();

  const run = async (v: { id?: string; action: 'delete' | 'requeue' | 'flush' }, title: string) => {
    try {
      const r = await act.mutateAsync(v);
      notify({ type: r.ok ? 'success' : 'error', title, message: r.message });
    } catch (err) {
      notify({ type: 'error', title: `${title} failed`, message: errorMessage(err) });
    }
  };
  const onDelete = async (m: QueueMessage) => {
    const ok = await confirmAction({
      title: 'Delete queued message',
      message: `Delete message ${m.id} from ${m.sender || '<>'}? It is never delivered.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (ok) await run({ id: m.id, action: 'delete' }, 'Message deleted');
  };

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
      <ScrollArea>
        <Table striped highlightOnHover miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Queue ID</Table.Th>
              <Table.Th>Queue</Table.Th>
              <Table.Th>Arrived</Table.Th>
              <Table.Th>Sender</Table.Th>
              <Table.Th>Recipients</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {messages.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed" ta="center" py="md">
                    The mail queue is empty.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {messages.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <Code>{m.id}</Code>
                </Table.Td>
                <Table.Td>{m.queue}</Table.Td>
                <Table.Td>{new Date(m.arrivalTime).toLocaleString()}</Table.Td>
                <Table.Td>{m.sender || '<>'}</Table.Td>
                <Table.Td>
                  {m.recipients.map((r) => (
                    <Text key={r.address} size="sm">
                      {r.address}
                      {r.reason && (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          — {r.reason}
                        </Text>
                      )}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td>{formatBytes(m.size)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="View message">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`View message ${m.id}`}
                        onClick={() => setShown(m.id)}
                      >
                        <IconEye size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Requeue">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Requeue message ${m.id}`}
                        onClick={() => void run({ id: m.id, action: 'requeue' }, 'Message requeued')}
                      >
                        <IconRefreshDot size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete message ${m.id}`}
                        onClick={() => void onDelete(m)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
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

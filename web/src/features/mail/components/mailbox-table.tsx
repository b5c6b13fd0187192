import type { Mailbox } from '@mailroom/contract/mail';
import { Badge, Box, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { formatBytes } from '../../../lib/format.ts';
import { usagePercent } from '../mail-units.ts';
import { RowActions } from './row-actions.tsx';
import { UsageBar } from './usage-bar.tsx';

export interface MailboxTableProps {
  mailboxes: Mailbox[];
  onEdit: (m: Mailbox) => void;
  onDelete: (m: Mailbox) => void;
  deleting: string | null;
  /** Shown in place of rows when there are none. */
  emptyText: string;
}

const quotaText = (m: Mailbox) => (m.quota === 0 ? 'Unlimited' : formatBytes(m.quota));

function SuspendedBadge() {
  return (
    <Badge color="red.9" variant="filled" size="sm">
      suspended
    </Badge>
  );
}

/** The §2 table on wide screens; one card per mailbox on phones. */
export function MailboxTable({ mailboxes, onEdit, onDelete, deleting, emptyText }: MailboxTableProps) {
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email Address</Table.Th>
                <Table.Th scope="col">Quota</Table.Th>
                <Table.Th scope="col">Used</Table.Th>
                <Table.Th scope="col">Usage</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right' }}>
                  Actions
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mailboxes.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed" ta="center" py="lg">
                      {emptyText}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {mailboxes.map((m) => (
                <Table.Tr key={m.email}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {m.email}
                      </Text>
                      {m.status === 'suspended' && <SuspendedBadge />}
                    </Group>
                  </Table.Td>
                  <Table.Td>{quotaText(m)}</Table.Td>
                  <Table.Td>{formatBytes(m.used)}</Table.Td>
                  <Table.Td>
                    <UsageBar percent={usagePercent(m.used, m.quota)} label={m.email} />
                  </Table.Td>
                  <Table.Td>
                    <RowActions
                      name={m.email}
                      onEdit={() => onEdit(m)}
                      onDelete={() => onDelete(m)}
                      deleting={deleting === m.email}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack
        hiddenFrom="sm"
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Mailboxes"
      >
        {mailboxes.length === 0 && (
          <Text c="dimmed" ta="center" py="lg" component="li">
            {emptyText}
          </Text>
        )}
        {mailboxes.map((m) => (
          <Paper key={m.email} withBorder p="sm" radius="md" component="li">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {m.email}
                </Text>
                {m.status === 'suspended' && <SuspendedBadge />}
              </Stack>
              <RowActions
                name={m.email}
                onEdit={() => onEdit(m)}
                onDelete={() => onDelete(m)}
                deleting={deleting === m.email}
              />
            </Group>
            <Text size="xs" c="dimmed" mt={6}>
              Quota {quotaText(m)} · Used {formatBytes(m.used)}
            </Text>
            <Box mt={4}>
              <UsageBar percent={usagePercent(m.used, m.quota)} label={m.email} />
            </Box>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

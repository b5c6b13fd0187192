import type { Mailbox } from '@mailroom/contract/mail';
import { ActionIcon, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { formatBytes } from '../../../lib/format.ts';
import { usagePercent } from '../mail-units.ts';
import { UsageBar } from './usage-bar.tsx';

export interface MailboxTableProps {
  mailboxes: Mailbox[];
  onEdit: (m: Mailbox) => void;
  onDelete: (m: Mailbox) => void;
  deleting: string | null;
}

export function MailboxTable({ mailboxes, onEdit, onDelete, deleting }: MailboxTableProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Email Address</Table.Th>
            <Table.Th>Quota</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Usage</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {mailboxes.map((m) => (
            <Table.Tr key={m.email}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {m.email}
                  </Text>
                  {m.status === 'suspended' && (
                    <Badge color="red" variant="light" size="sm">
                      suspended
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{m.quota === 0 ? 'Unlimited' : formatBytes(m.quota)}</Table.Td>
              <Table.Td>{formatBytes(m.used)}</Table.Td>
              <Table.Td>
                <UsageBar percent={usagePercent(m.used, m.quota)} label={m.email} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label="Edit">
                    <ActionIcon variant="subtle" aria-label={`Edit ${m.email}`} onClick={() => onEdit(m)}>
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${m.email}`}
                      onClick={() => onDelete(m)}
                      loading={deleting === m.email}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

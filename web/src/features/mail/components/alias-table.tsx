import { splitDestinations, type Alias } from '@mailroom/contract/mail';
import { ActionIcon, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { StatusBadge } from '../../../components/status-badge.tsx';

export interface AliasTableProps {
  aliases: Alias[];
  onEdit: (a: Alias) => void;
  onDelete: (a: Alias) => void;
  deleting: string | null;
}

export function AliasTable({ aliases, onEdit, onDelete, deleting }: AliasTableProps) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Source Email</Table.Th>
            <Table.Th>Destination Email</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {aliases.map((a) => (
            <Table.Tr key={a.source}>
              <Table.Td>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {a.source}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  {splitDestinations(a.destination).map((d) => (
                    <Text key={d} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {d}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={a.status} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label="Edit">
                    <ActionIcon variant="subtle" aria-label={`Edit ${a.source}`} onClick={() => onEdit(a)}>
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${a.source}`}
                      onClick={() => onDelete(a)}
                      loading={deleting === a.source}
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

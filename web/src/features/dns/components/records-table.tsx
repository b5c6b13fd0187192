import type { DnsRecord } from '@mailroom/contract/dns';
import { ActionIcon, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { displayName } from '../record-form-values.ts';

export interface RecordsTableProps {
  records: DnsRecord[];
  onEdit: (r: DnsRecord) => void;
  onDelete: (r: DnsRecord) => void;
  deletingId: number | null;
}

export function RecordsTable({ records, onEdit, onDelete, deletingId }: RecordsTableProps) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Zone</Table.Th>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Value</Table.Th>
            <Table.Th scope="col">TTL</Table.Th>
            <Table.Th scope="col">Priority</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r) => {
            const label = `${r.rtype} ${displayName(r.qname)} in ${r.zone}`;
            return (
              <Table.Tr key={r.id}>
                <Table.Td>{r.zone}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {displayName(r.qname)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray">
                    {r.rtype}
                  </Badge>
                </Table.Td>
                <Table.Td maw={420}>
                  <Group gap={4} wrap="nowrap" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
                        {r.value}
                      </Text>
                      {r.rtype === 'SRV' && (
                        <Text size="xs" c="dimmed">
                          weight {r.weight ?? '—'} · port {r.port ?? '—'}
                        </Text>
                      )}
                    </div>
                    <CopyButton value={r.value} label={`Copy value of ${label}`} />
                  </Group>
                </Table.Td>
                <Table.Td>{r.ttl}</Table.Td>
                <Table.Td>{r.priority ?? '—'}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit ${label}`} onClick={() => onEdit(r)}>
                        <IconPencil size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${label}`}
                        loading={deletingId === r.id}
                        onClick={() => onDelete(r)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

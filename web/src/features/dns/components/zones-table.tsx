import type { Zone } from '@mailroom/contract/dns';
import { ActionIcon, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { zoneTypeLabel } from './zone-fields.tsx';

export interface ZonesTableProps {
  zones: Zone[];
  onView: (z: Zone) => void;
  onEdit: (z: Zone) => void;
  onDelete: (z: Zone) => void;
  deleting: string | null;
}

export function ZonesTable({ zones, onView, onEdit, onDelete, deleting }: ZonesTableProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Domain</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Records</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Last Updated</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {zones.map((z) => (
            <Table.Tr key={z.domain}>
              <Table.Td>
                <Text fw={600} size="sm">
                  {z.domain}
                </Text>
              </Table.Td>
              <Table.Td>{zoneTypeLabel(z.zoneType)}</Table.Td>
              <Table.Td>{z.records}</Table.Td>
              <Table.Td>
                <StatusBadge status={z.status} />
              </Table.Td>
              <Table.Td>
                <span title={new Date(z.lastUpdated).toLocaleString()}>
                  {formatRelativeTime(z.lastUpdated)}
                </span>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label="View">
                    <ActionIcon variant="subtle" aria-label={`View ${z.domain}`} onClick={() => onView(z)}>
                      <IconEye size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Edit">
                    <ActionIcon variant="subtle" aria-label={`Edit ${z.domain}`} onClick={() => onEdit(z)}>
                      <IconPencil size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${z.domain}`}
                      loading={deleting === z.domain}
                      onClick={() => onDelete(z)}
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
    </Table.ScrollContainer>
  );
}

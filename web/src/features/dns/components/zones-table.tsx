import type { Zone } from '@mailroom/contract/dns';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable, type TableSort } from '../../../components/data-table/data-table.tsx';
import type { ListPagerProps } from '../../../components/list-pager.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { zoneTypeLabel } from './zone-fields.tsx';

export interface ZonesTableProps {
  zones: Zone[];
  onView: (z: Zone) => void;
  onEdit: (z: Zone) => void;
  /** Absent for a domain administrator (removing a zone is an administrator's). */
  onDelete?: ((z: Zone) => void) | undefined;
  deleting: string | null;
  sort?: TableSort;
  onSortChange?: (s: TableSort) => void;
  pager?: ListPagerProps;
}

/** The zones on the shared data table: sortable on the server, cards on phones. */
export function ZonesTable({
  zones,
  onView,
  onEdit,
  onDelete,
  deleting,
  sort,
  onSortChange,
  pager,
}: ZonesTableProps) {
  const columns = useMemo<ColumnDef<Zone, unknown>[]>(
    () => [
      {
        id: 'domain',
        header: 'Domain',
        meta: { title: true },
        cell: ({ row }) => (
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {row.original.domain}
          </Text>
        ),
      },
      {
        id: 'type',
        header: 'Type',
        enableSorting: false,
        cell: ({ row }) => zoneTypeLabel(row.original.zoneType),
      },
      { id: 'records', header: 'Records', cell: ({ row }) => row.original.records },
      { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'lastUpdated',
        header: 'Last Updated',
        cell: ({ row: { original: z } }) => (
          <span title={new Date(z.lastUpdated).toLocaleString()}>{formatRelativeTime(z.lastUpdated)}</span>
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: z } }) => (
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
            {onDelete && (
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
            )}
          </Group>
        ),
      },
    ],
    [onView, onEdit, onDelete, deleting],
  );
  return (
    <DataTable
      label="DNS zones"
      data={zones}
      columns={columns}
      getRowId={(z) => z.domain}
      emptyText="No DNS zones found"
      sort={sort}
      onSortChange={onSortChange}
      pager={pager}
      minWidth={720}
    />
  );
}

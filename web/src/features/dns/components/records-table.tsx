import type { DnsRecord } from '@mailroom/contract/dns';
import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableControls } from '../../../components/table-controls.ts';
import { displayName } from '../record-form-values.ts';

export interface RecordsTableProps extends TableControls {
  records: DnsRecord[];
  onEdit: (r: DnsRecord) => void;
  onDelete: (r: DnsRecord) => void;
  deletingId: number | null;
}

/** What a record is called for screen readers and confirmations: 'A www in example.com'. */
export const recordLabel = (r: DnsRecord) => `${r.rtype} ${displayName(r.qname)} in ${r.zone}`;
const rowId = (r: DnsRecord) => String(r.id);
const rowLabel = (r: DnsRecord) => `${r.qname || '@'}.${r.zone} ${r.rtype} ${r.value}`.slice(0, 120);

/**
 * The record list on the shared data table: sorted on the server by any column, selectable for a
 * bulk delete, paged, and cards on phones (the name is the card's title, the actions beside it).
 */
export function RecordsTable({ records, onEdit, onDelete, deletingId, ...controls }: RecordsTableProps) {
  const columns = useMemo<ColumnDef<DnsRecord, unknown>[]>(
    () => [
      { id: 'zone', header: 'Zone', cell: ({ row }) => row.original.zone },
      {
        id: 'qname',
        header: 'Name',
        meta: { title: true },
        cell: ({ row }) => (
          <Text size="sm" ff="monospace" fw="inherit">
            {displayName(row.original.qname)}
          </Text>
        ),
      },
      {
        id: 'rtype',
        header: 'Type',
        cell: ({ row }) => (
          <Badge variant="light" color="gray">
            {row.original.rtype}
          </Badge>
        ),
      },
      {
        id: 'value',
        header: 'Value',
        cell: ({ row: { original: r } }) => (
          <Group gap={4} wrap="nowrap" align="flex-start" maw={420}>
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
            <CopyButton value={r.value} label={`Copy value of ${recordLabel(r)}`} />
          </Group>
        ),
      },
      { id: 'ttl', header: 'TTL', cell: ({ row }) => row.original.ttl },
      { id: 'priority', header: 'Priority', cell: ({ row }) => row.original.priority ?? '—' },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: r } }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit ${recordLabel(r)}`} onClick={() => onEdit(r)}>
                <IconPencil size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${recordLabel(r)}`}
                loading={deletingId === r.id}
                onClick={() => onDelete(r)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [onEdit, onDelete, deletingId],
  );
  return (
    <DataTable
      {...controls}
      label="DNS records"
      data={records}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      minWidth={860}
    />
  );
}

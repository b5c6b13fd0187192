import type { AuditEntry } from '@mailroom/contract/audit';
import { Button, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/data-table/data-table.tsx';
import type { ListPagerProps } from '../../components/list-pager.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';

export const when = (iso: string) => new Date(iso).toLocaleString();
const rowId = (e: AuditEntry) => String(e.id);
const rowLabel = (e: AuditEntry) => `${e.action} on ${e.target ?? 'nothing named'} by ${e.actor ?? 'system'}`;

/**
 * The audit entries on the shared data table, newest first (the log's only order: no sorting);
 * Details opens the entry's before/after.
 */
export function AuditTable({
  entries,
  emptyText,
  onDetails,
  pager,
}: {
  entries: AuditEntry[];
  emptyText: string;
  onDetails: (e: AuditEntry) => void;
  pager?: ListPagerProps | undefined;
}) {
  const columns = useMemo<ColumnDef<AuditEntry, unknown>[]>(
    () => [
      {
        id: 'action',
        header: 'Action',
        meta: { title: true },
        cell: ({ row: { original: e } }) => (
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {e.action}
          </Text>
        ),
      },
      {
        id: 'target',
        header: 'Target',
        cell: ({ row: { original: e } }) => (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {e.target ?? '—'}
          </Text>
        ),
      },
      { id: 'actor', header: 'Who', cell: ({ row }) => row.original.actor ?? 'system' },
      { id: 'at', header: 'When', cell: ({ row }) => when(row.original.at) },
      {
        id: 'outcome',
        header: 'Outcome',
        cell: ({ row: { original: e } }) => (
          <StatusBadge status={e.outcome} label={e.outcome === 'success' ? 'Success' : 'Failed'} />
        ),
      },
      {
        id: 'details',
        header: 'Details',
        meta: { actions: true },
        cell: ({ row: { original: e } }) => (
          <Button
            size="xs"
            variant="default"
            aria-label={`Details of ${rowLabel(e)}`}
            onClick={() => onDetails(e)}
          >
            Details
          </Button>
        ),
      },
    ],
    [onDetails],
  );
  return (
    <DataTable
      label="Audit entries"
      data={entries}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      emptyText={emptyText}
      pager={pager}
      minWidth={760}
    />
  );
}

import { ActionIcon, Group, SegmentedControl, Text, TextInput, Tooltip } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';

/** Rows a live tab renders at most: the machine's snapshot can hold thousands. */
export const SHOWN = 300;

/** A live tab's filter buttons and search box (processes, connections). */
export function LiveFilters<F extends string>({
  label,
  filterLabel,
  filters,
  filter,
  onFilter,
  search,
  onSearch,
}: {
  /** "processes", "connections": names the search box. */
  label: string;
  /** "Process filter", "Connection filter". */
  filterLabel: string;
  filters: { value: F; label: string }[];
  filter: F;
  onFilter: (f: F) => void;
  search: string;
  onSearch: (s: string) => void;
}) {
  return (
    <Group justify="space-between" mb="sm" wrap="wrap">
      <SegmentedControl
        aria-label={filterLabel}
        value={filter}
        onChange={(v) => onFilter(v as F)}
        data={filters}
      />
      <TextInput
        aria-label={`Search ${label}`}
        placeholder={`Search ${label}...`}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
      />
    </Group>
  );
}

/** A row action of a live tab: an icon button with its tooltip. */
export function RowAction({
  tip,
  label,
  icon,
  danger,
  onClick,
}: {
  tip: string;
  label: string;
  icon: ReactNode;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip label={tip}>
      <ActionIcon variant="subtle" color={danger ? 'red' : undefined} aria-label={label} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A live snapshot's rows on the shared data table, at most `limit` of them (in the order given: the
 * snapshot has no server order to choose, so the headers do not sort), with a note when cut.
 */
export function LiveTable<T>({
  label,
  rows,
  columns,
  getRowId,
  getRowLabel,
  emptyText,
  limit = SHOWN,
  pageSize,
  noun = 'rows',
}: {
  label: string;
  rows: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  getRowLabel?: (row: T) => string;
  emptyText: string;
  /** Rows rendered at most (the tabs with a search box); the note says how to see the rest. */
  limit?: number;
  /** Pages of this many rows (all of the snapshot, no limit), with the shared pager. */
  pageSize?: number;
  /** What the pager counts ("processes"). */
  noun?: string;
}) {
  const [wanted, setPage] = useState(1);
  const pages = pageSize ? Math.max(1, Math.ceil(rows.length / pageSize)) : 1;
  // A fresh snapshot can be shorter: stay on a page that exists.
  const page = Math.min(wanted, pages);
  const shown = useMemo(() => {
    if (pageSize) return rows.slice((page - 1) * pageSize, page * pageSize);
    return rows.length > limit ? rows.slice(0, limit) : rows;
  }, [rows, limit, page, pageSize]);
  return (
    <>
      <DataTable
        label={label}
        data={shown}
        columns={columns}
        getRowId={getRowId}
        getRowLabel={getRowLabel}
        emptyText={emptyText}
        minWidth={760}
        pager={pageSize ? { page, pageSize, total: rows.length, onPage: setPage, noun } : undefined}
      />
      {!pageSize && rows.length > limit && (
        <Text size="sm" c="dimmed" mt="xs">
          Showing the first {limit} of {rows.length}; search to narrow the list.
        </Text>
      )}
    </>
  );
}

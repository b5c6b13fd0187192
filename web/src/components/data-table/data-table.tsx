import { Checkbox, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  type ColumnDef,
  type RowData,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useMemo, useRef } from 'react';
import { ListPager, type ListPagerProps } from '../list-pager.tsx';
import { DataTableCards } from './data-table-cards.tsx';
import { Chunk, chunkStarts, headerText, ROWS_PER_STEP, useProgressiveCount } from './data-table-rows.tsx';

export { ROWS_PER_STEP } from './data-table-rows.tsx';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned cell (numbers, actions). */
    align?: 'right';
    /** The row's actions: on a phone card they sit beside the title, never off-screen. */
    actions?: boolean;
    /** The card's title on a phone (one column; the first column otherwise). */
    title?: boolean;
    /** Left out of the phone card (shown in the title already, or not useful there). */
    hideOnCard?: boolean;
    /** Text of the header for screen readers and the card's labels when the header is not a string. */
    label?: string;
  }
}

/** The server's sort: a column id and its direction (`-id` on the API). */
export interface TableSort {
  id: string;
  desc: boolean;
}

export const sortParam = (s: TableSort): string => (s.desc ? `-${s.id}` : s.id);

export interface DataTableProps<T> {
  /** Names the table and the phone list for screen readers. */
  label: string;
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  /** What a row's checkbox says after "Select" (default: its id). */
  getRowLabel?: ((row: T) => string) | undefined;
  emptyText: string;
  /** Sorting happens on the server: the current sort and what a header click asks for. */
  sort?: TableSort | undefined;
  onSortChange?: ((sort: TableSort) => void) | undefined;
  /** Multi-selection by row id (kept across pages by the caller). */
  selection?: ReadonlySet<string> | undefined;
  onSelectionChange?: ((next: Set<string>) => void) | undefined;
  /** Rows that may not be selected (e.g. a required system alias). */
  canSelect?: ((row: T) => boolean) | undefined;
  pager?: ListPagerProps | undefined;
  /** Table below this width scrolls sideways on a tablet; phones get cards. */
  minWidth?: number;
  /** Rows shown as cards on phones (default); false keeps the table, scrolling sideways. */
  cards?: boolean;
  /** A test id on each row (and on its phone card). */
  getRowTestId?: ((row: T) => string) | undefined;
}

const ALWAYS = () => true;

/**
 * The console's one table: server-side sorting (click a header; aria-sort says the order),
 * multi-selection kept by row id, server paging (cursor or offset, through ListPager), and a
 * phone layout where every row becomes a card with its actions beside its title. Columns are
 * TanStack column definitions; the table itself renders with Mantine's styles, every row in the
 * DOM (find in page, screen readers), appearing in slices of ROWS_PER_STEP rows, one <tbody> per
 * slice (see bench/ tables for 1,000 rows).
 */
export function DataTable<T>({
  label,
  data,
  columns,
  getRowId,
  getRowLabel = getRowId,
  emptyText,
  sort,
  onSortChange,
  selection,
  onSelectionChange,
  canSelect = ALWAYS,
  pager,
  minWidth = 640,
  cards = true,
  getRowTestId,
}: DataTableProps<T>) {
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });
  const selectable = !!selection && !!onSelectionChange;
  const selectableIds = useMemo(
    () => (selectable ? data.filter((r) => canSelect(r)).map((r) => getRowId(r)) : []),
    [data, selectable, canSelect, getRowId],
  );
  const selectedHere = selectableIds.filter((id) => selection?.has(id)).length;
  const toggleAll = () => {
    if (!onSelectionChange || !selection) return;
    const next = new Set(selection);
    if (selectedHere === selectableIds.length) for (const id of selectableIds) next.delete(id);
    else for (const id of selectableIds) next.add(id);
    onSelectionChange(next);
  };
  // Stable across renders (the rows are memoised): reads the latest selection from a ref.
  const latest = useRef({ selection, onSelectionChange });
  latest.current = { selection, onSelectionChange };
  const toggle = useCallback((id: string) => {
    const { selection: sel, onSelectionChange: change } = latest.current;
    if (!change || !sel) return;
    const next = new Set(sel);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    change(next);
  }, []);
  const allRows = table.getRowModel().rows;
  const shown = useProgressiveCount(allRows.length, data);
  const rows = shown === allRows.length ? allRows : allRows.slice(0, shown);
  // One layout at a time: phones get cards, wider screens the table.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const showTable = !cards || wide;
  const showCards = cards && !wide;
  const leaf = table.getAllLeafColumns();
  const visible = table.getVisibleLeafColumns();
  const span = leaf.length + (selectable ? 1 : 0);

  const rowCheckbox = (row: T, id: string, name: string) =>
    selectable && (
      <Checkbox
        aria-label={`Select ${name}`}
        checked={selection.has(id)}
        disabled={!canSelect(row)}
        onChange={() => toggle(id)}
      />
    );

  return (
    <>
      {showTable && (
        <Table.ScrollContainer
          minWidth={minWidth}
          // A table wider than the screen scrolls sideways: its region takes the keyboard's focus
          // (arrow keys scroll it) even when no cell holds a button (axe scrollable-region-focusable).
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
        >
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                {selectable && (
                  <Table.Th scope="col" w={40}>
                    <Checkbox
                      aria-label="Select all rows on this page"
                      checked={selectableIds.length > 0 && selectedHere === selectableIds.length}
                      indeterminate={selectedHere > 0 && selectedHere < selectableIds.length}
                      disabled={selectableIds.length === 0}
                      onChange={toggleAll}
                    />
                  </Table.Th>
                )}
                {table.getFlatHeaders().map((h) => {
                  const def = h.column.columnDef;
                  const sortable = !!onSortChange && def.enableSorting !== false && !def.meta?.actions;
                  const active = sort?.id === h.column.id;
                  const content = flexRender(def.header, h.getContext());
                  return (
                    <Table.Th
                      key={h.id}
                      scope="col"
                      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}
                      style={def.meta?.align === 'right' ? { textAlign: 'right' } : undefined}
                    >
                      {sortable ? (
                        <UnstyledButton
                          onClick={() => onSortChange({ id: h.column.id, desc: active ? !sort.desc : false })}
                          title={`Sort by ${headerText(def)}`}
                          style={{ fontWeight: 'inherit', fontSize: 'inherit' }}
                        >
                          <Group gap={4} wrap="nowrap">
                            {content}
                            {active ? (
                              sort.desc ? (
                                <IconArrowDown size={14} aria-hidden />
                              ) : (
                                <IconArrowUp size={14} aria-hidden />
                              )
                            ) : (
                              <IconArrowsSort size={14} aria-hidden style={{ opacity: 0.4 }} />
                            )}
                          </Group>
                        </UnstyledButton>
                      ) : (
                        content
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            {rows.length === 0 ? (
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td colSpan={span}>
                    <Text c="dimmed" ta="center" py="lg">
                      {emptyText}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            ) : (
              chunkStarts(shown).map((from) => (
                <Chunk
                  key={from}
                  table={table}
                  columns={visible}
                  rows={allRows}
                  from={from}
                  to={Math.min(shown, from + ROWS_PER_STEP)}
                  last={from + ROWS_PER_STEP >= shown}
                  selection={selection}
                  selectable={selectable}
                  canSelect={canSelect}
                  rowLabel={getRowLabel}
                  rowTestId={getRowTestId}
                  onToggle={toggle}
                />
              ))
            )}
          </Table>
        </Table.ScrollContainer>
      )}
      {showCards && selectable && selectableIds.length > 0 && (
        // Outside the list: the list holds one item per row and nothing else.
        <Checkbox
          mb="xs"
          label="Select all on this page"
          checked={selectedHere === selectableIds.length}
          indeterminate={selectedHere > 0 && selectedHere < selectableIds.length}
          onChange={toggleAll}
        />
      )}
      {showCards && (
        <DataTableCards
          table={table}
          rows={rows}
          label={label}
          emptyText={emptyText}
          getRowLabel={getRowLabel}
          getRowTestId={getRowTestId}
          rowCheckbox={rowCheckbox}
        />
      )}
      {pager && <ListPager {...pager} />}
    </>
  );
}

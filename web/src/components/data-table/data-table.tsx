import { Box, Checkbox, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  type Cell,
  type CellContext,
  type Column,
  type ColumnDef,
  type Row,
  type RowData,
  type Table as TanTable,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useMediaQuery } from '@mantine/hooks';
import {
  memo,
  type ReactNode,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import classes from './data-table.module.css';
import { ListPager, type ListPagerProps } from '../list-pager.tsx';

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
}

/** Rows rendered per step: a long page appears in slices, so no step blocks input for long. */
export const ROWS_PER_STEP = 40;

/**
 * How many of `total` rows to render now: the first slice at once, the rest a slice per step in a
 * transition (React yields between them), starting again when the rows change.
 */
function useProgressiveCount(total: number, key: unknown): number {
  const [count, setCount] = useState(Math.min(total, ROWS_PER_STEP));
  const [seen, setSeen] = useState(key);
  if (seen !== key) {
    setSeen(key);
    setCount(Math.min(total, ROWS_PER_STEP));
  }
  useEffect(() => {
    if (count >= total) return;
    const t = setTimeout(() => startTransition(() => setCount((c) => Math.min(total, c + ROWS_PER_STEP))), 0);
    return () => clearTimeout(t);
  }, [count, total]);
  return Math.min(count, total);
}

/** Where each row group starts: every ROWS_PER_STEP rows (an even number keeps the stripes in step). */
function chunkStarts(count: number): number[] {
  const starts: number[] = [];
  for (let i = 0; i < count; i += ROWS_PER_STEP) starts.push(i);
  return starts;
}

function headerText<T>(col: ColumnDef<T, unknown>): string {
  if (col.meta?.label) return col.meta.label;
  return typeof col.header === 'string' ? col.header : (col.id ?? '');
}

/**
 * What a column's `cell` gets. TanStack's own (row.getVisibleCells(), cell.getContext()) makes a
 * Cell per row and column, a dozen closures and memos each: over 1,000 rows × 6 columns that is
 * some 100,000 objects for the collector to walk while the table fills. This one holds the table,
 * the column and the row; the Cell (and its getValue / renderValue) is TanStack's, made on first use.
 */
class LightCellContext<T> implements CellContext<T, unknown> {
  readonly table: TanTable<T>;
  readonly column: Column<T, unknown>;
  readonly row: Row<T>;
  constructor(table: TanTable<T>, column: Column<T, unknown>, row: Row<T>) {
    this.table = table;
    this.column = column;
    this.row = row;
  }
  get cell(): Cell<T, unknown> {
    return this.row._getAllCellsByColumnId()[this.column.id]!;
  }
  get getValue(): Cell<T, unknown>['getValue'] {
    return this.cell.getValue;
  }
  get renderValue(): Cell<T, unknown>['renderValue'] {
    return this.cell.renderValue;
  }
}

/**
 * A cell's content: the column's `cell` called as a function. flexRender would mount each one as
 * a component (a fiber and a copy of its props per cell); cells are plain render functions (no
 * hooks: the lint rules refuse them there), so a call gives the same elements. Anything else (a
 * memo or forwardRef component) goes through flexRender with TanStack's own context.
 */
function renderCell<T>(table: TanTable<T>, column: Column<T, unknown>, row: Row<T>): ReactNode {
  const def = column.columnDef.cell;
  if (typeof def === 'function') return def(new LightCellContext(table, column, row)) as ReactNode;
  return flexRender(def, row._getAllCellsByColumnId()[column.id]!.getContext());
}

interface RowViewProps<T> {
  table: TanTable<T>;
  /** The visible columns, in order. */
  columns: Column<T, unknown>[];
  row: Row<T>;
  label: string;
  selected: boolean;
  selectable: boolean;
  canSelect: boolean;
  onToggle: (id: string) => void;
}

// Mantine's table classes on plain elements: Table.Tr / Table.Td cost a context read, props
// resolution and a Box per cell, which adds up over 1,000 rows × 6 cells.
const TR = Table.classes.tr ?? '';
const TD = Table.classes.td ?? '';
const RIGHT = { textAlign: 'right' } as const;

function RowViewInner<T>({
  table,
  columns,
  row,
  label,
  selected,
  selectable,
  canSelect,
  onToggle,
}: RowViewProps<T>) {
  return (
    <tr
      className={TR}
      data-striped="odd"
      data-hover
      data-with-row-border
      style={selected ? { backgroundColor: 'var(--mantine-primary-color-light)' } : undefined}
    >
      {selectable && (
        <td className={TD}>
          <Checkbox
            aria-label={`Select ${label}`}
            checked={selected}
            disabled={!canSelect}
            onChange={() => onToggle(row.id)}
          />
        </td>
      )}
      {columns.map((column) => (
        <td
          key={column.id}
          className={TD}
          style={column.columnDef.meta?.align === 'right' ? RIGHT : undefined}
        >
          {renderCell(table, column, row)}
        </td>
      ))}
    </tr>
  );
}
/** A row re-renders only when its data, selection or columns change (1,000 rows stay cheap). */
const RowView = memo(RowViewInner) as typeof RowViewInner;

interface ChunkProps<T> {
  table: TanTable<T>;
  columns: Column<T, unknown>[];
  rows: Row<T>[];
  from: number;
  to: number;
  last: boolean;
  selection: ReadonlySet<string> | undefined;
  selectable: boolean;
  canSelect: (row: T) => boolean;
  rowLabel: (row: T) => string;
  onToggle: (id: string) => void;
}

/**
 * One slice of the rows in its own <tbody>. The browser restyles a row group's earlier rows when
 * one is appended after them (Mantine's striping and last-row rules are positional), so each step
 * of the progressive render touches only its own group, not the whole table; and a group that
 * is already shown is not rendered again when the next one arrives.
 */
function ChunkInner<T>({
  table,
  columns,
  rows,
  from,
  to,
  last,
  selection,
  selectable,
  canSelect,
  rowLabel,
  onToggle,
}: ChunkProps<T>) {
  const shown: ReactNode[] = [];
  for (let i = from; i < to; i++) {
    const row = rows[i]!;
    shown.push(
      <RowView
        key={row.id}
        table={table}
        columns={columns}
        row={row}
        label={rowLabel(row.original)}
        selected={!!selection?.has(row.id)}
        selectable={selectable}
        canSelect={canSelect(row.original)}
        onToggle={onToggle}
      />,
    );
  }
  return (
    <Table.Tbody className={classes.chunk} data-last={last || undefined}>
      {shown}
    </Table.Tbody>
  );
}
const Chunk = memo(ChunkInner) as typeof ChunkInner;

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
  const titleCol = leaf.find((c) => c.columnDef.meta?.title) ?? leaf[0];
  const actionsCol = leaf.find((c) => c.columnDef.meta?.actions);
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
        <Stack
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label={label}
        >
          {rows.length === 0 && (
            <Text c="dimmed" ta="center" py="lg" component="li">
              {emptyText}
            </Text>
          )}
          {rows.map((row) => {
            const title = visible.find((c) => c.id === titleCol?.id);
            const actions = visible.find((c) => c.id === actionsCol?.id);
            return (
              <Paper key={row.id} withBorder p="sm" radius="md" component="li">
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                    {rowCheckbox(row.original, row.id, getRowLabel(row.original))}
                    <Box style={{ minWidth: 0, overflowWrap: 'anywhere' }} fw={600}>
                      {title && renderCell(table, title, row)}
                    </Box>
                  </Group>
                  {actions && <Box style={{ flexShrink: 0 }}>{renderCell(table, actions, row)}</Box>}
                </Group>
                <Stack gap={2} mt={6}>
                  {visible
                    .filter(
                      (c) =>
                        c.id !== titleCol?.id && c.id !== actionsCol?.id && !c.columnDef.meta?.hideOnCard,
                    )
                    .map((c) => (
                      <Group key={c.id} gap="xs" wrap="nowrap" align="center">
                        <Text size="xs" c="dimmed" w={90} style={{ flexShrink: 0 }}>
                          {headerText(c.columnDef)}
                        </Text>
                        <Box style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }} fz="sm">
                          {renderCell(table, c, row)}
                        </Box>
                      </Group>
                    ))}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      )}
      {pager && <ListPager {...pager} />}
    </>
  );
}

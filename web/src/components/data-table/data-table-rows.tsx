import { Checkbox, Table } from '@mantine/core';
import {
  type Cell,
  type CellContext,
  type Column,
  type ColumnDef,
  type Row,
  type Table as TanTable,
  flexRender,
} from '@tanstack/react-table';
import { memo, type ReactNode, startTransition, useEffect, useState } from 'react';
import classes from './data-table.module.css';

/** The DataTable's rows: rendered in slices (one <tbody> each), a memoised row per record. */

/** Rows rendered per step: a long page appears in slices, so no step blocks input for long. */
export const ROWS_PER_STEP = 40;

/**
 * How many of `total` rows to render now: the first slice at once, the rest a slice per step in a
 * transition (React yields between them), starting again when the rows change.
 */
export function useProgressiveCount(total: number, key: unknown): number {
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
export function chunkStarts(count: number): number[] {
  const starts: number[] = [];
  for (let i = 0; i < count; i += ROWS_PER_STEP) starts.push(i);
  return starts;
}

export function headerText<T>(col: ColumnDef<T, unknown>): string {
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
export function renderCell<T>(table: TanTable<T>, column: Column<T, unknown>, row: Row<T>): ReactNode {
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
  testId: string | undefined;
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
  testId,
}: RowViewProps<T>) {
  return (
    <tr
      data-testid={testId}
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
  rowTestId: ((row: T) => string) | undefined;
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
  rowTestId,
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
        testId={rowTestId?.(row.original)}
      />,
    );
  }
  return (
    <Table.Tbody className={classes.chunk} data-last={last || undefined}>
      {shown}
    </Table.Tbody>
  );
}
export const Chunk = memo(ChunkInner) as typeof ChunkInner;

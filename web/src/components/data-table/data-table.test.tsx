import { MantineProvider } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, ROWS_PER_STEP } from './data-table.tsx';

interface Item {
  name: string;
}
const COLUMNS: ColumnDef<Item, unknown>[] = [
  { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
];
const ITEMS = Array.from({ length: 2 * ROWS_PER_STEP + 5 }, (_, i) => ({ name: `item${i}` }));

function Harness() {
  const [selection, setSelection] = useState<Set<string>>(new Set());
  return (
    <MantineProvider>
      <DataTable
        label="Items"
        data={ITEMS}
        columns={COLUMNS}
        getRowId={(r) => r.name}
        emptyText="None"
        cards={false}
        selection={selection}
        onSelectionChange={setSelection}
      />
    </MantineProvider>
  );
}

interface Person {
  name: string;
  age: number;
}

describe('DataTable', () => {
  it("gives a column's cell TanStack's context: the row, getValue and the cell", () => {
    const columns: ColumnDef<Person, unknown>[] = [
      { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
      { accessorKey: 'age', header: 'Age', cell: ({ getValue }) => `${String(getValue())} years` },
      {
        id: 'where',
        header: 'Cell',
        cell: ({ cell, row, column }) => `${cell.id}/${row.index}/${column.id}`,
      },
      // A column without its own `cell` shows the accessor's value (TanStack's default cell).
      { id: 'plain', accessorFn: (p) => p.age * 2, header: 'Twice' },
    ];
    render(
      <MantineProvider>
        <DataTable
          label="People"
          data={[{ name: 'ann', age: 30 }]}
          columns={columns}
          getRowId={(p) => p.name}
          emptyText="None"
          cards={false}
        />
      </MantineProvider>,
    );
    const row = within(screen.getByRole('table', { name: 'People' })).getAllByRole('row')[1]!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'ann',
      '30 years',
      'ann_where/0/where',
      '60',
    ]);
  });

  it('shows every row, one row group per slice, only the last group marked last', async () => {
    render(<Harness />);
    const table = screen.getByRole('table', { name: 'Items' });
    await waitFor(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(ITEMS.length), {
      timeout: 10_000,
    });
    const groups = [...table.querySelectorAll('tbody')];
    expect(groups.map((g) => g.querySelectorAll('tr').length)).toEqual([ROWS_PER_STEP, ROWS_PER_STEP, 5]);
    expect(groups.map((g) => g.hasAttribute('data-last'))).toEqual([false, false, true]);
    // Rows in order across the groups, each with Mantine's row class and stripes.
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(ITEMS.map((i) => i.name));
    expect(rows[0]).toHaveAttribute('data-striped', 'odd');
  }, 20_000);

  it('selects a row of a later group', async () => {
    render(<Harness />);
    const box = await screen.findByRole(
      'checkbox',
      { name: `Select item${ROWS_PER_STEP + 1}` },
      { timeout: 10_000 },
    );
    await userEvent.click(box);
    expect(box).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select item0' })).not.toBeChecked();
  }, 20_000);
});

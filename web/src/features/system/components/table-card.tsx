import { Card, Group, Select, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';

export interface TableCardProps<F extends string, T> {
  title: string;
  filterLabel: string;
  filters: readonly F[];
  filter: F;
  onFilter: (f: F) => void;
  actions?: ReactNode;
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  /** Shown when `data` is empty. */
  empty: string;
  footer?: ReactNode;
  /** Below this width the table scrolls sideways on a tablet; phones get cards. */
  minWidth?: number;
}

/** A titled table with a filter and header buttons, on the shared table (cards on a phone). */
export function TableCard<F extends string, T>(p: TableCardProps<F, T>) {
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap" gap="sm">
        <Title order={2} size="h4">
          {p.title}
        </Title>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={p.filterLabel}
            size="xs"
            w={170}
            data={p.filters.map((f) => ({ value: f, label: f }))}
            value={p.filter}
            onChange={(v) => v && p.onFilter(v as F)}
            allowDeselect={false}
          />
          {p.actions}
        </Group>
      </Group>
      {p.footer}
      <DataTable
        label={`${p.title} table`}
        data={p.data}
        columns={p.columns}
        getRowId={p.getRowId}
        emptyText={p.empty}
        minWidth={p.minWidth ?? 640}
      />
    </Card>
  );
}

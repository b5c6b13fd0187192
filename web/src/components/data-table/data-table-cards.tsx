import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { Row, Table as TanTable } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { headerText, renderCell } from './data-table-rows.tsx';

interface DataTableCardsProps<T> {
  table: TanTable<T>;
  rows: Row<T>[];
  label: string;
  emptyText: string;
  getRowLabel: (row: T) => string;
  getRowTestId: ((row: T) => string) | undefined;
  rowCheckbox: (row: T, id: string, name: string) => ReactNode;
}

/** The DataTable on a phone: every row a card, its title and actions on top, the other columns below. */
export function DataTableCards<T>({
  table,
  rows,
  label,
  emptyText,
  getRowLabel,
  getRowTestId,
  rowCheckbox,
}: DataTableCardsProps<T>) {
  const leaf = table.getAllLeafColumns();
  const visible = table.getVisibleLeafColumns();
  const titleCol = leaf.find((c) => c.columnDef.meta?.title) ?? leaf[0];
  const actionsCol = leaf.find((c) => c.columnDef.meta?.actions);
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={label}>
      {rows.length === 0 && (
        <Text c="dimmed" ta="center" py="lg" component="li">
          {emptyText}
        </Text>
      )}
      {rows.map((row) => {
        const title = visible.find((c) => c.id === titleCol?.id);
        const actions = visible.find((c) => c.id === actionsCol?.id);
        return (
          <Paper
            key={row.id}
            withBorder
            p="sm"
            radius="md"
            component="li"
            data-testid={getRowTestId?.(row.original)}
          >
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
                  (c) => c.id !== titleCol?.id && c.id !== actionsCol?.id && !c.columnDef.meta?.hideOnCard,
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
  );
}

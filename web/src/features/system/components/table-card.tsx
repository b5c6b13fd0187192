import { Card, Group, ScrollArea, Select, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface TableCardProps<F extends string> {
  title: string;
  filterLabel: string;
  filters: readonly F[];
  filter: F;
  onFilter: (f: F) => void;
  actions?: ReactNode;
  head: string[];
  /** The rows; empty: `empty` shows in one row. */
  children: ReactNode[];
  empty: string;
  footer?: ReactNode;
}

/** A titled table with a filter and header buttons; scrolls sideways on narrow screens. */
export function TableCard<F extends string>(p: TableCardProps<F>) {
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
      <ScrollArea
        type="auto"
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${p.title} table` }}
      >
        <Table striped highlightOnHover verticalSpacing="xs" miw={640}>
          <Table.Thead>
            <Table.Tr>
              {p.head.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.children.length ? (
              p.children
            ) : (
              <Table.Tr>
                <Table.Td colSpan={p.head.length}>
                  <Text c="dimmed" size="sm" ta="center" py="sm">
                    {p.empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Card>
  );
}

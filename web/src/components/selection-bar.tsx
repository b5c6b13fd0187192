import { Button, Group, Paper, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface SelectionBarProps {
  count: number;
  /** Singular and plural noun: ['alias', 'aliases']. */
  noun: readonly [string, string];
  deleting: boolean;
  onDelete: () => void;
  onClear: () => void;
  /** Extra actions (the bulk operation on the selection). */
  extra?: ReactNode;
}

/** What to do with the rows selected in a data table (here: delete them, in one call). */
export function SelectionBar({ count, noun, deleting, onDelete, onClear, extra }: SelectionBarProps) {
  if (count === 0) return null;
  return (
    <Paper withBorder p="xs" radius="md" role="region" aria-label={`Selected ${noun[1]}`}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500} aria-live="polite">
          {count} {count === 1 ? noun[0] : noun[1]} selected
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={deleting}
            onClick={onDelete}
          >
            Delete
          </Button>
          {extra}
          <Button size="xs" variant="subtle" onClick={onClear} disabled={deleting}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

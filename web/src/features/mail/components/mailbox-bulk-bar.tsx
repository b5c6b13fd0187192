import type { BulkMailboxAction } from '@mailroom/contract/mail';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface MailboxBulkBarProps {
  count: number;
  pending: BulkMailboxAction | null;
  onAction: (action: BulkMailboxAction) => void;
  onClear: () => void;
  /** Extra actions (the bulk operation on the selection). */
  extra?: ReactNode;
}

/** What to do with the selected mailboxes: one call, one transaction, all or none. */
export function MailboxBulkBar({ count, pending, onAction, onClear, extra }: MailboxBulkBarProps) {
  if (count === 0) return null;
  return (
    <Paper withBorder p="xs" radius="md" role="region" aria-label="Selected mailboxes">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500} aria-live="polite">
          {count} {count === 1 ? 'mailbox' : 'mailboxes'} selected
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlayerPause size={14} aria-hidden />}
            loading={pending === 'suspend'}
            disabled={pending !== null}
            onClick={() => onAction('suspend')}
          >
            Suspend
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            loading={pending === 'resume'}
            disabled={pending !== null}
            onClick={() => onAction('resume')}
          >
            Resume
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={pending === 'delete'}
            disabled={pending !== null}
            onClick={() => onAction('delete')}
          >
            Delete
          </Button>
          {extra}
          <Button size="xs" variant="subtle" onClick={onClear} disabled={pending !== null}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

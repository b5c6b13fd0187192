import type { Mailbox } from '@mailroom/contract/mail';
import { Badge, Group, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableControls } from '../../../components/table-controls.ts';
import { formatBytes } from '../../../lib/format.ts';
import { usagePercent } from '../mail-units.ts';
import { RowActions } from './row-actions.tsx';
import { UsageBar } from './usage-bar.tsx';

export interface MailboxTableProps extends TableControls {
  mailboxes: Mailbox[];
  onEdit: (m: Mailbox) => void;
  onDelete: (m: Mailbox) => void;
  deleting: string | null;
}

const rowId = (m: Mailbox) => m.email;
const quotaText = (m: Mailbox) => (m.quota === 0 ? 'Unlimited' : formatBytes(m.quota));

function SuspendedBadge() {
  return (
    <Badge color="red.9" variant="filled" size="sm">
      suspended
    </Badge>
  );
}

/** The §2 table (with domain and status, sortable and selectable) on the shared data table. */
export function MailboxTable({ mailboxes, onEdit, onDelete, deleting, ...controls }: MailboxTableProps) {
  const columns = useMemo<ColumnDef<Mailbox, unknown>[]>(
    () => [
      {
        id: 'email',
        header: 'Email Address',
        meta: { title: true },
        cell: ({ row: { original: m } }) => (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {m.email}
            </Text>
            {m.status === 'suspended' && <SuspendedBadge />}
          </Group>
        ),
      },
      { id: 'domain', header: 'Domain', cell: ({ row }) => row.original.domain },
      { id: 'quota', header: 'Quota', cell: ({ row }) => quotaText(row.original) },
      { id: 'used', header: 'Used', cell: ({ row }) => formatBytes(row.original.used) },
      {
        id: 'usage',
        header: 'Usage',
        cell: ({ row: { original: m } }) => (
          <UsageBar percent={usagePercent(m.used, m.quota)} label={m.email} />
        ),
      },
      {
        id: 'status',
        header: 'Status',
        meta: { hideOnCard: true },
        cell: ({ row }) => (row.original.status === 'suspended' ? 'Suspended' : 'Active'),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true, align: 'right' },
        cell: ({ row: { original: m } }) => (
          <RowActions
            name={m.email}
            onEdit={() => onEdit(m)}
            onDelete={() => onDelete(m)}
            deleting={deleting === m.email}
          />
        ),
      },
    ],
    [onEdit, onDelete, deleting],
  );
  return (
    <DataTable
      {...controls}
      label="Mailboxes"
      data={mailboxes}
      columns={columns}
      getRowId={rowId}
      minWidth={820}
    />
  );
}

import type { Mailbox } from '@mailroom/contract/mail';
import { Badge, Group, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import {
  DataTable,
  type DataTableProps,
  type TableSort,
} from '../../../components/data-table/data-table.tsx';
import type { ListPagerProps } from '../../../components/list-pager.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { usagePercent } from '../mail-units.ts';
import { RowActions } from './row-actions.tsx';
import { UsageBar } from './usage-bar.tsx';

export interface MailboxTableProps {
  mailboxes: Mailbox[];
  onEdit: (m: Mailbox) => void;
  onDelete: (m: Mailbox) => void;
  deleting: string | null;
  /** Shown in place of rows when there are none. */
  emptyText: string;
  sort?: TableSort;
  onSortChange?: (s: TableSort) => void;
  selection?: ReadonlySet<string>;
  onSelectionChange?: (next: Set<string>) => void;
  pager?: ListPagerProps;
}

const quotaText = (m: Mailbox) => (m.quota === 0 ? 'Unlimited' : formatBytes(m.quota));

function SuspendedBadge() {
  return (
    <Badge color="red.9" variant="filled" size="sm">
      suspended
    </Badge>
  );
}

/** The §2 table (with domain and status, sortable and selectable) on the shared data table. */
export function MailboxTable({
  mailboxes,
  onEdit,
  onDelete,
  deleting,
  emptyText,
  sort,
  onSortChange,
  selection,
  onSelectionChange,
  pager,
}: MailboxTableProps) {
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
  const props: DataTableProps<Mailbox> = {
    label: 'Mailboxes',
    data: mailboxes,
    columns,
    getRowId: (m) => m.email,
    emptyText,
    sort,
    onSortChange,
    selection,
    onSelectionChange,
    pager,
    minWidth: 820,
  };
  return <DataTable {...props} />;
}

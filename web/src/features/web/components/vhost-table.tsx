import type { VirtualHost } from '@mailroom/contract/web';
import { Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableControls } from '../../../components/table-controls.ts';
import { formatLastModified, formatResponseTime, formatWebNumber } from '../web-format.ts';
import { Breakable } from './breakable.tsx';
import { VhostRowActions, type VhostRowActionsProps } from './vhost-row-actions.tsx';
import { SslBadge, VhostStatusBadge } from './vhost-status-badge.tsx';

export interface VhostTableProps
  extends TableControls, Omit<VhostRowActionsProps, 'vhost' | 'toggling' | 'deleting'> {
  vhosts: VirtualHost[];
  label?: string;
  /** The domain whose toggle or delete is under way. */
  toggling?: string | null;
  deleting?: string | null;
}

const rowId = (v: VirtualHost) => v.domain;

/** The virtual host rows (spec 3 §2.2) on the shared data table: phone cards below 48em. */
export function VhostTable({
  vhosts,
  label = 'Virtual Hosts',
  onEdit,
  onView,
  onToggle,
  onDelete,
  toggling = null,
  deleting = null,
  ...controls
}: VhostTableProps) {
  const columns = useMemo<ColumnDef<VirtualHost, unknown>[]>(
    () => [
      {
        id: 'domain',
        header: 'Domain',
        meta: { title: true },
        cell: ({ row: { original: v } }) => (
          <Stack gap={0}>
            <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
              <Breakable text={v.domain} />
            </Text>
            {v.serverAlias.map((a) => (
              <Text key={a} size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
                <Breakable text={a} />
              </Text>
            ))}
          </Stack>
        ),
      },
      {
        id: 'documentRoot',
        header: 'Document Root',
        cell: ({ row }) => (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'break-word' }}>
            <Breakable text={row.original.documentRoot} />
          </Text>
        ),
      },
      {
        id: 'ssl',
        header: 'SSL',
        enableSorting: false,
        cell: ({ row }) => <SslBadge enabled={row.original.sslEnabled} />,
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) => <VhostStatusBadge status={row.original.status} />,
      },
      {
        id: 'traffic',
        header: 'Traffic',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => formatWebNumber(row.original.traffic),
      },
      {
        id: 'responseTime',
        header: 'Response Time',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => formatResponseTime(row.original.responseTime),
      },
      {
        id: 'lastModified',
        header: 'Last Modified',
        cell: ({ row }) => formatLastModified(row.original.lastModified),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true, align: 'right' },
        cell: ({ row: { original: v } }) => (
          <VhostRowActions
            vhost={v}
            onEdit={onEdit}
            onView={onView}
            onToggle={onToggle}
            onDelete={onDelete}
            toggling={toggling === v.domain}
            deleting={deleting === v.domain}
          />
        ),
      },
    ],
    [onEdit, onView, onToggle, onDelete, toggling, deleting],
  );
  return (
    <DataTable {...controls} label={label} data={vhosts} columns={columns} getRowId={rowId} minWidth={960} />
  );
}

import type { MfaDevice } from '@mailroom/contract/mfa';
import { ActionIcon, Badge, Group, Tooltip } from '@mantine/core';
import { IconEye, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { when } from './mfa-format.ts';

const rowId = (d: MfaDevice) => String(d.id);
const rowLabel = (d: MfaDevice) => `${d.deviceName} of ${d.userEmail}`;

/**
 * Spec §2.6 devices table on the shared data table. The API answers every device in one list
 * with no server order, so the table does not sort (a page sorted in the browser would mislead).
 */
export function DevicesTable({
  devices,
  onView,
  onRevoke,
}: {
  devices: MfaDevice[];
  onView: (d: MfaDevice) => void;
  onRevoke: (d: MfaDevice) => void;
}) {
  const columns = useMemo<ColumnDef<MfaDevice, unknown>[]>(
    () => [
      {
        id: 'deviceName',
        header: 'Device',
        meta: { title: true },
        cell: ({ row }) => row.original.deviceName,
      },
      { id: 'userEmail', header: 'User', cell: ({ row }) => row.original.userEmail },
      { id: 'deviceType', header: 'Type', cell: ({ row }) => row.original.deviceType },
      { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'isPrimary',
        header: 'Primary',
        cell: ({ row }) => (row.original.isPrimary ? <Badge variant="light">Primary</Badge> : 'No'),
      },
      {
        id: 'trustedDevice',
        header: 'Trusted',
        cell: ({ row }) => (row.original.trustedDevice ? 'Yes' : 'No'),
      },
      { id: 'lastUsed', header: 'Last Used', cell: ({ row }) => when(row.original.lastUsed) },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: d } }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="View">
              <ActionIcon variant="subtle" aria-label={`View ${d.deviceName}`} onClick={() => onView(d)}>
                <IconEye size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Revoke">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Revoke ${d.deviceName} of ${d.userEmail}`}
                onClick={() => onRevoke(d)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [onView, onRevoke],
  );
  return (
    <DataTable
      label="Devices"
      data={devices}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      emptyText="No devices found"
      minWidth={820}
    />
  );
}

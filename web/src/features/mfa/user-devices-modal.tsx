import type { MfaUser } from '@mailroom/contract/mfa';
import { Badge, Modal, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { when } from './mfa-format.ts';

type Device = MfaUser['mfaDevices'][number];
const rowId = (d: Device) => String(d.id);
const COLUMNS: ColumnDef<Device, unknown>[] = [
  {
    id: 'deviceName',
    header: 'Device',
    meta: { title: true },
    cell: ({ row: { original: d } }) => (
      <>
        {d.deviceName} {d.isPrimary && <Badge size="xs">Primary</Badge>}
      </>
    ),
  },
  { id: 'deviceType', header: 'Type', cell: ({ row }) => row.original.deviceType },
  { id: 'lastUsed', header: 'Last Used', cell: ({ row }) => when(row.original.lastUsed) },
];

export function UserDevicesModal({ user, onClose }: { user: MfaUser | null; onClose: () => void }) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `Devices of ${user.email}` : ''} size="lg">
      {user && user.mfaDevices.length === 0 && (
        <Text size="sm" c="dimmed">
          No MFA device enrolled.
        </Text>
      )}
      {user && user.mfaDevices.length > 0 && (
        <DataTable
          label={`Devices of ${user.email}`}
          data={user.mfaDevices}
          columns={COLUMNS}
          getRowId={rowId}
          emptyText="No MFA device enrolled."
        />
      )}
      {user && (
        <Text size="sm" mt="sm">
          Backup codes: {user.backupCodes.available} available, {user.backupCodes.used} used,{' '}
          {user.backupCodes.expired} expired
        </Text>
      )}
    </Modal>
  );
}

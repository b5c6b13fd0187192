import type { MfaUser } from '@mailroom/contract/mfa';
import { Badge, Modal, Table, Text } from '@mantine/core';
import { when } from './mfa-format.ts';

export function UserDevicesModal({ user, onClose }: { user: MfaUser | null; onClose: () => void }) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `Devices of ${user.email}` : ''} size="lg">
      {user && user.mfaDevices.length === 0 && (
        <Text size="sm" c="dimmed">
          No MFA device enrolled.
        </Text>
      )}
      {user && user.mfaDevices.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Last Used</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {user.mfaDevices.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  {d.deviceName} {d.isPrimary && <Badge size="xs">Primary</Badge>}
                </Table.Td>
                <Table.Td>{d.deviceType}</Table.Td>
                <Table.Td>{when(d.lastUsed)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
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

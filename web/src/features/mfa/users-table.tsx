import type { MfaUser } from '@mailroom/contract/mfa';
import { ActionIcon, Group, Switch, Table, Text, Tooltip } from '@mantine/core';
import { IconEye, IconSettings } from '@tabler/icons-react';
import { StatusBadge } from '../../components/status-badge.tsx';
import { when } from './mfa-format.ts';

/** Spec §2.5/§2.6 users table: User, MFA Status, Method, Devices, Backup Codes, Last MFA Login, … */
export function UsersTable({
  users,
  withStatus,
  onManage,
  onView,
  onToggle,
}: {
  users: MfaUser[];
  withStatus: boolean;
  onManage: (u: MfaUser) => void;
  onView: (u: MfaUser) => void;
  onToggle?: (u: MfaUser) => void;
}) {
  if (users.length === 0)
    return (
      <Text c="dimmed" size="sm" py="md" ta="center">
        No users found
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>MFA Status</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Devices</Table.Th>
            <Table.Th>Backup Codes</Table.Th>
            <Table.Th>Last MFA Login</Table.Th>
            {withStatus && <Table.Th>Status</Table.Th>}
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((u) => (
            <Table.Tr key={u.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {u.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge
                  status={u.mfaEnabled ? 'enabled' : 'inactive'}
                  label={u.mfaEnabled ? 'Enabled' : 'Disabled'}
                />
              </Table.Td>
              <Table.Td>{u.mfaMethod ?? '—'}</Table.Td>
              <Table.Td>{u.mfaDevicesCount}</Table.Td>
              <Table.Td>{u.backupCodesCount}</Table.Td>
              <Table.Td>{when(u.lastMfaLogin)}</Table.Td>
              {withStatus && (
                <Table.Td>
                  <StatusBadge
                    status={u.status === 'active' ? 'active' : u.status === 'locked' ? 'error' : 'pending'}
                    label={u.status}
                  />
                </Table.Td>
              )}
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label="Manage">
                    <ActionIcon variant="subtle" aria-label={`Manage ${u.email}`} onClick={() => onManage(u)}>
                      <IconSettings size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="View devices">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`View devices of ${u.email}`}
                      onClick={() => onView(u)}
                    >
                      <IconEye size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  {onToggle && (
                    <Switch
                      size="sm"
                      aria-label={`MFA for ${u.email}`}
                      checked={u.mfaEnabled || u.status === 'enrolment required'}
                      onChange={() => onToggle(u)}
                    />
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

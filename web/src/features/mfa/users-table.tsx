import type { MfaUser } from '@mailroom/contract/mfa';
import { ActionIcon, Group, Switch, Text, Tooltip } from '@mantine/core';
import { IconEye, IconSettings } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable, type TableSort } from '../../components/data-table/data-table.tsx';
import type { ListPagerProps } from '../../components/list-pager.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { MFA_STATE_LABEL, mfaStateOf, when } from './mfa-format.ts';

const rowId = (u: MfaUser) => `${u.kind ?? 'console'}:${u.id}`;
const rowLabel = (u: MfaUser) => u.email;

/**
 * Spec §2.5/§2.6 users table: User, MFA Status, Method, Devices, Backup Codes, Last MFA Login, …
 * on the shared data table. User and Last MFA Login sort on the server when the list is paged
 * there (onSortChange); the other columns are computed per page and do not sort.
 */
export function UsersTable({
  users,
  withStatus,
  onManage,
  onView,
  onToggle,
  sort,
  onSortChange,
  pager,
}: {
  users: MfaUser[];
  withStatus: boolean;
  onManage: (u: MfaUser) => void;
  onView: (u: MfaUser) => void;
  onToggle?: ((u: MfaUser) => void) | undefined;
  sort?: TableSort | undefined;
  onSortChange?: ((s: TableSort) => void) | undefined;
  pager?: ListPagerProps | undefined;
}) {
  const columns = useMemo<ColumnDef<MfaUser, unknown>[]>(
    () => [
      {
        id: 'email',
        header: 'User',
        meta: { title: true },
        cell: ({ row: { original: u } }) => (
          <>
            <Text size="sm" fw={500}>
              {u.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {u.email}
            </Text>
          </>
        ),
      },
      {
        id: 'mfaEnabled',
        header: 'MFA Status',
        enableSorting: false,
        cell: ({ row: { original: u } }) => (
          <StatusBadge
            status={{ enabled: 'enabled', required: 'pending', disabled: 'inactive' }[mfaStateOf(u)]}
            label={MFA_STATE_LABEL[mfaStateOf(u)]}
          />
        ),
      },
      {
        id: 'mfaMethod',
        header: 'Method',
        enableSorting: false,
        cell: ({ row }) => row.original.mfaMethod ?? '—',
      },
      {
        id: 'devices',
        header: 'Devices',
        enableSorting: false,
        cell: ({ row }) => row.original.mfaDevicesCount,
      },
      {
        id: 'backupCodes',
        header: 'Backup Codes',
        enableSorting: false,
        cell: ({ row }) => row.original.backupCodesCount,
      },
      { id: 'lastMfaLogin', header: 'Last MFA Login', cell: ({ row }) => when(row.original.lastMfaLogin) },
      ...(withStatus
        ? [
            {
              id: 'status',
              header: 'Status',
              enableSorting: false,
              cell: ({ row: { original: u } }: { row: { original: MfaUser } }) => (
                <StatusBadge
                  status={u.status === 'active' ? 'active' : u.status === 'locked' ? 'error' : 'pending'}
                  label={u.status}
                />
              ),
            } satisfies ColumnDef<MfaUser, unknown>,
          ]
        : []),
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: u } }) => (
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
                checked={mfaStateOf(u) !== 'disabled'}
                onChange={() => onToggle(u)}
              />
            )}
          </Group>
        ),
      },
    ],
    [withStatus, onManage, onView, onToggle],
  );
  return (
    <DataTable
      label="Users"
      data={users}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      emptyText="No users found"
      sort={sort}
      onSortChange={onSortChange}
      pager={pager}
      minWidth={820}
    />
  );
}

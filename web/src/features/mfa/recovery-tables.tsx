import type { BackupCodeRow, Lockout, RecoveryRequest } from '@mailroom/contract/mfa';
import { Button, Code, Group } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { when } from './mfa-format.ts';

/*
 * The MFA Recovery tabs' tables (spec §2.7) on the shared data table. The recovery API answers
 * each list whole, newest first, with no server order to choose: the tables do not sort.
 */

export const backupState = (c: { used: boolean; expiresAt: string }) =>
  c.used ? 'Used' : Date.parse(c.expiresAt) < Date.now() ? 'Expired' : 'Available';

const byId = (r: { id: number }) => String(r.id);
const byUser = (r: { userEmail: string }) => r.userEmail;

export function RequestsTable({
  requests,
  onApprove,
  onReject,
}: {
  requests: RecoveryRequest[];
  onApprove: (r: RecoveryRequest) => void;
  onReject: (r: RecoveryRequest) => void;
}) {
  const columns = useMemo<ColumnDef<RecoveryRequest, unknown>[]>(
    () => [
      { id: 'user', header: 'User', meta: { title: true }, cell: ({ row }) => row.original.userEmail },
      { id: 'type', header: 'Type', cell: ({ row }) => row.original.requestType },
      { id: 'reason', header: 'Reason', cell: ({ row }) => row.original.reason },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: r } }) => (
          <StatusBadge
            status={r.status === 'approved' ? 'success' : r.status === 'rejected' ? 'failed' : 'pending'}
            label={r.status}
            miw={100}
          />
        ),
      },
      { id: 'requested', header: 'Requested', cell: ({ row }) => when(row.original.requestedAt) },
      { id: 'ip', header: 'IP Address', cell: ({ row }) => row.original.ipAddress ?? '—' },
      {
        id: 'resolved',
        header: 'Resolved',
        cell: ({ row: { original: r } }) =>
          r.resolvedAt ? `${when(r.resolvedAt)} by ${r.resolvedBy ?? '?'}` : '—',
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: r } }) =>
          r.status === 'pending' && (
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                aria-label={`Approve the request of ${r.userEmail}`}
                onClick={() => onApprove(r)}
              >
                Approve
              </Button>
              <Button
                size="xs"
                // Neutral: a light red button on a striped row falls below 4.5:1 (the confirm is red).
                variant="default"
                aria-label={`Reject the request of ${r.userEmail}`}
                onClick={() => onReject(r)}
              >
                Reject
              </Button>
            </Group>
          ),
      },
    ],
    [onApprove, onReject],
  );
  return (
    <DataTable
      label="Recovery requests"
      data={requests}
      columns={columns}
      getRowId={byId}
      getRowLabel={byUser}
      emptyText="No recovery requests"
      minWidth={900}
    />
  );
}

export function LockoutsTable({
  lockouts,
  onUnlock,
}: {
  lockouts: Lockout[];
  onUnlock: (l: Lockout) => void;
}) {
  const columns = useMemo<ColumnDef<Lockout, unknown>[]>(
    () => [
      { id: 'user', header: 'User', meta: { title: true }, cell: ({ row }) => row.original.userEmail },
      { id: 'type', header: 'Type', cell: ({ row }) => row.original.lockoutType },
      { id: 'attempts', header: 'Attempts', cell: ({ row }) => row.original.attempts },
      { id: 'ip', header: 'IP Address', cell: ({ row }) => row.original.ipAddress ?? '—' },
      { id: 'locked', header: 'Locked', cell: ({ row }) => when(row.original.lockedAt) },
      { id: 'expires', header: 'Expires', cell: ({ row }) => when(row.original.expiresAt) },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: l } }) => (
          <StatusBadge
            status={l.status === 'active' ? 'error' : l.status === 'unlocked' ? 'success' : 'inactive'}
            label={l.status === 'unlocked' ? `unlocked by ${l.unlockedBy ?? '?'}` : l.status}
          />
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: l } }) =>
          l.status === 'active' && (
            <Button size="xs" aria-label={`Unlock ${l.userEmail}`} onClick={() => onUnlock(l)}>
              Unlock
            </Button>
          ),
      },
    ],
    [onUnlock],
  );
  return (
    <DataTable
      label="Account lockouts"
      data={lockouts}
      columns={columns}
      getRowId={byId}
      getRowLabel={byUser}
      emptyText="No lockouts"
      minWidth={900}
    />
  );
}

const BACKUP_COLUMNS: ColumnDef<BackupCodeRow, unknown>[] = [
  { id: 'user', header: 'User', meta: { title: true }, cell: ({ row }) => row.original.userEmail },
  { id: 'code', header: 'Code', cell: ({ row }) => <Code>{row.original.code}</Code> },
  {
    id: 'status',
    header: 'Status',
    cell: ({ row: { original: c } }) => {
      const state = backupState(c);
      return (
        <StatusBadge
          status={state === 'Available' ? 'active' : state === 'Used' ? 'inactive' : 'expired'}
          label={state}
        />
      );
    },
  },
  { id: 'created', header: 'Created', cell: ({ row }) => when(row.original.createdAt) },
  { id: 'used', header: 'Used', cell: ({ row }) => (row.original.usedAt ? when(row.original.usedAt) : '—') },
  { id: 'expires', header: 'Expires', cell: ({ row }) => when(row.original.expiresAt) },
];

export function BackupCodesTable({ codes }: { codes: BackupCodeRow[] }) {
  return (
    <DataTable
      label="Backup codes"
      data={codes}
      columns={BACKUP_COLUMNS}
      getRowId={byId}
      getRowLabel={byUser}
      emptyText="No backup codes"
      minWidth={700}
    />
  );
}

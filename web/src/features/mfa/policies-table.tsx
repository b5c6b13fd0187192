import { appliesToLabel, type MfaPolicy } from '@mailroom/contract/mfa';
import { ActionIcon, Group, Switch, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { when } from './mfa-format.ts';

const rowId = (p: MfaPolicy) => String(p.id);
const rowLabel = (p: MfaPolicy) => p.name;

/**
 * Spec §2.6 policies table on the shared data table (cards on a phone). The API answers every
 * policy in one list with no server order, so the headers do not sort.
 */
export function PoliciesTable({
  policies,
  onEdit,
  onToggle,
  onDelete,
}: {
  policies: MfaPolicy[];
  onEdit: (p: MfaPolicy) => void;
  onToggle: (p: MfaPolicy) => void;
  onDelete: (p: MfaPolicy) => void;
}) {
  const columns = useMemo<ColumnDef<MfaPolicy, unknown>[]>(
    () => [
      {
        id: 'name',
        header: 'Policy Name',
        meta: { title: true },
        cell: ({ row: { original: p } }) => (
          <>
            <Text size="sm" fw={500}>
              {p.name}
            </Text>
            <Text size="xs" c="dimmed" fw={400}>
              {appliesToLabel(p.appliesTo)}
              {p.requireMfa ? ' · MFA required' : ''}
            </Text>
          </>
        ),
      },
      { id: 'description', header: 'Description', cell: ({ row }) => row.original.description },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: p } }) => (
          <StatusBadge
            status={p.enabled ? 'enabled' : 'disabled'}
            label={p.enabled ? 'Enabled' : 'Disabled'}
          />
        ),
      },
      { id: 'methods', header: 'Methods', cell: ({ row }) => row.original.allowedMethods.join(', ') },
      {
        id: 'backupCodes',
        header: 'Backup Codes',
        cell: ({ row: { original: p } }) => (p.backupCodesEnabled ? p.backupCodesCount : 'Off'),
      },
      {
        id: 'sessionTimeout',
        header: 'Session Timeout',
        cell: ({ row }) => `${row.original.sessionTimeout}s`,
      },
      { id: 'lastModified', header: 'Last Modified', cell: ({ row }) => when(row.original.lastModified) },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: p } }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit ${p.name}`} onClick={() => onEdit(p)}>
                <IconEdit size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Switch
              size="sm"
              aria-label={`Policy ${p.name} enabled`}
              checked={p.enabled}
              onChange={() => onToggle(p)}
            />
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${p.name}`}
                onClick={() => onDelete(p)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [onEdit, onToggle, onDelete],
  );
  return (
    <DataTable
      label="MFA policies"
      data={policies}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      emptyText="No policies found"
      minWidth={900}
    />
  );
}

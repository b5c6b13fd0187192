import { CONSOLE_ROLE_LABELS, type ConsoleAccount } from '@mailroom/contract/accounts';
import { ActionIcon, Badge, Group, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useDnsZoneOptions, useMailDomainOptions } from '../../api/use-domain-options.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { AccountModal } from './account-modal.tsx';
import { useConsoleAccounts } from './use-console-accounts.ts';
import { useRemoveConsoleAccount } from './use-remove-console-account.ts';

/** Known mail domains and DNS zones, offered when assigning domains. */
export function useDomainOptions(): string[] {
  const mail = useMailDomainOptions();
  const zones = useDnsZoneOptions();
  return [
    ...new Set([...(mail.data ?? []).map((d) => d.domain), ...(zones.data ?? []).map((z) => z.domain)]),
  ].sort();
}

const rowId = (a: ConsoleAccount) => a.email;

/** Console accounts: administrators and domain administrators with their domains; edit, remove. */
export function ConsoleAccounts() {
  const list = useConsoleAccounts();
  const removeAccount = useRemoveConsoleAccount();
  const domainOptions = useDomainOptions();
  const [editing, setEditing] = useState<ConsoleAccount | null>(null);
  const remove = async (a: ConsoleAccount) => {
    const ok = await confirmAction({
      title: 'Remove account',
      message: `Remove ${a.email}? It is signed out everywhere.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      await removeAccount.mutateAsync(a.email);
      notify({ type: 'success', title: 'Account removed', message: `${a.email} was removed.` });
    } catch (e) {
      notify({
        type: 'error',
        title: 'Remove failed',
        message: e instanceof ApiError ? e.message : String(e),
      });
    }
  };
  const columns: ColumnDef<ConsoleAccount, unknown>[] = [
    { id: 'email', header: 'Email', meta: { title: true }, cell: ({ row }) => row.original.email },
    {
      id: 'role',
      header: 'Role',
      cell: ({ row: { original: a } }) => (
        <Badge variant={a.role === 'admin' ? 'light' : 'default'} color="blue">
          {CONSOLE_ROLE_LABELS[a.role]}
        </Badge>
      ),
    },
    {
      id: 'domains',
      header: 'Domains',
      cell: ({ row: { original: a } }) => (
        <Text size="sm">{a.role === 'admin' ? 'All' : a.domains.join(', ')}</Text>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      meta: { actions: true },
      cell: ({ row: { original: a } }) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" aria-label={`Edit ${a.email}`} onClick={() => setEditing(a)}>
            <IconPencil size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${a.email}`}
            onClick={() => void remove(a)}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ),
    },
  ];
  return (
    <LoadState
      loading={list.isPending}
      error={list.error ? list.error.message : null}
      errorTitle="Failed to load console accounts"
      onRetry={() => void list.refetch()}
    >
      <DataTable
        label="Console accounts"
        data={list.data ?? []}
        columns={columns}
        getRowId={rowId}
        emptyText="No console accounts"
        minWidth={560}
      />
      <AccountModal
        opened={editing !== null}
        account={editing}
        domainOptions={domainOptions}
        onClose={() => setEditing(null)}
        onDone={() => undefined}
      />
    </LoadState>
  );
}

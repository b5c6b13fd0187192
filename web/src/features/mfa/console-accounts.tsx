import { CONSOLE_ROLE_LABELS, type ConsoleAccount } from '@mailroom/contract/accounts';
import { ActionIcon, Badge, Group, Table, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useDnsZoneOptions, useMailDomainOptions } from '../../api/use-domain-options.ts';
import { confirmAction } from '../../components/confirm-action.ts';
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
  return (
    <LoadState
      loading={list.isPending}
      error={list.error ? list.error.message : null}
      errorTitle="Failed to load console accounts"
      onRetry={() => void list.refetch()}
    >
      <Table.ScrollContainer minWidth={560}>
        <Table striped aria-label="Console accounts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Domains</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(list.data ?? []).map((a) => (
              <Table.Tr key={a.email}>
                <Table.Td>{a.email}</Table.Td>
                <Table.Td>
                  <Badge variant={a.role === 'admin' ? 'light' : 'default'} color="blue">
                    {CONSOLE_ROLE_LABELS[a.role]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.role === 'admin' ? 'All' : a.domains.join(', ')}</Text>
                </Table.Td>
                <Table.Td>
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
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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

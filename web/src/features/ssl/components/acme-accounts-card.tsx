import type { AcmeAccount } from '@mailroom/contract/ssl-acme';
import { Button, Card, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { useAcmeAccounts } from '../use-acme-accounts.ts';
import { useResetAcmeAccount } from '../use-reset-acme-account.ts';

/**
 * The ACME accounts per CA directory, each with Reset Account: after a CA was reset or an account
 * deactivated, the next order registers a new one (Mailroom also does so by itself, once).
 */
export function AcmeAccountsCard() {
  const accounts = useAcmeAccounts();
  const reset = useResetAcmeAccount();

  const columns = useMemo<ColumnDef<AcmeAccount, unknown>[]>(() => {
    const ask = async (a: AcmeAccount) => {
      const ok = await confirmAction({
        title: 'Reset ACME Account',
        message: `Forget the account Mailroom holds with ${a.directoryUrl}? The next certificate order registers a new account (its key is new too).`,
        confirmLabel: 'Reset Account',
        danger: true,
      });
      if (!ok) return;
      try {
        const answer = await reset.mutateAsync(a.directoryUrl);
        notify({ type: 'success', title: 'ACME account reset', message: answer.message });
      } catch (err) {
        notify({ type: 'error', title: 'Failed to reset the ACME account', message: errorMessage(err) });
      }
    };
    return [
      {
        id: 'directory',
        header: 'CA Directory',
        meta: { title: true },
        cell: ({ row }) => (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {row.original.directoryUrl}
          </Text>
        ),
      },
      { id: 'contact', header: 'Contact', cell: ({ row }) => row.original.contactEmail || '—' },
      {
        id: 'registered',
        header: 'Registered',
        cell: ({ row }) =>
          row.original.accountUrl ? new Date(row.original.updatedAt).toLocaleString() : 'Not yet',
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row }) => (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`Reset the ACME account of ${row.original.directoryUrl}`}
            onClick={() => void ask(row.original)}
          >
            Reset Account
          </Button>
        ),
      },
    ];
  }, [reset]);

  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      mt="lg"
      component="section"
      aria-labelledby="acme-accounts-title"
    >
      <Title order={2} size="h4" id="acme-accounts-title">
        ACME Accounts
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        One account per certificate authority directory. When a CA no longer knows the account (reset,
        deactivated), Mailroom registers a new one once and retries the order; Reset Account makes the next
        order start with a new account.
      </Text>
      <LoadState
        loading={accounts.isPending}
        error={accounts.error ? errorMessage(accounts.error) : null}
        errorTitle="Failed to load the ACME accounts"
        loadingLabel="Loading ACME accounts..."
        onRetry={() => void accounts.refetch()}
      >
        <DataTable
          label="ACME accounts"
          data={accounts.data ?? []}
          columns={columns}
          getRowId={(a) => a.directoryUrl}
          emptyText="No ACME account yet: the first ACME order registers one."
        />
      </LoadState>
    </Card>
  );
}

import type { AppPassword } from '@mailroom/contract/app-passwords';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconKeyOff } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { useMailboxAppPasswords } from '../use-mailbox-app-passwords.ts';
import { useRevokeMailboxAppPassword } from '../use-revoke-mailbox-app-password.ts';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

/**
 * The mailbox's app passwords (IMAP, POP3, SMTP) in its edit dialog: names and dates (the passwords
 * themselves are shown once, to the owner), each revocable. A new password or a suspension
 * revokes them all.
 */
export function MailboxAppPasswords({ email }: { email: string }) {
  const list = useMailboxAppPasswords(email);
  const revoke = useRevokeMailboxAppPassword();

  const columns = useMemo<ColumnDef<AppPassword, unknown>[]>(() => {
    const ask = async (p: AppPassword) => {
      const ok = await confirmAction({
        title: 'Revoke App Password',
        message: `Revoke the app password "${p.name}" of ${email}? Mail programs using it can no longer sign in.`,
        confirmLabel: 'Revoke',
        danger: true,
      });
      if (!ok) return;
      revoke.mutate(
        { email, id: p.id },
        {
          onSuccess: () =>
            notify({ type: 'success', title: 'App password revoked', message: `${p.name} (${email})` }),
          onError: (err) =>
            notify({ type: 'error', title: 'Failed to revoke app password', message: errorMessage(err) }),
        },
      );
    };
    return [
      { id: 'name', header: 'Name', accessorKey: 'name', meta: { title: true } },
      {
        id: 'createdAt',
        header: 'Created',
        accessorFn: (p) => when(p.createdAt),
      },
      {
        id: 'actions',
        header: '',
        meta: { align: 'right', actions: true, label: 'Actions' },
        cell: ({ row }) => (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconKeyOff size={14} aria-hidden />}
            aria-label={`Revoke app password ${row.original.name}`}
            loading={revoke.isPending && revoke.variables?.id === row.original.id}
            onClick={() => void ask(row.original)}
          >
            Revoke
          </Button>
        ),
      },
    ];
  }, [email, revoke]);

  return (
    <Stack gap="xs" component="section" aria-labelledby="edit-app-passwords-title">
      <Title order={3} size="h5" id="edit-app-passwords-title">
        App Passwords
      </Title>
      <Text size="sm" c="dimmed">
        {list.data?.mfaEnabled
          ? 'This mailbox has a second factor: mail programs sign in with these app passwords only.'
          : 'Mail programs may sign in with these app passwords as well as the mailbox password.'}{' '}
        Setting a new password or suspending the mailbox revokes them all and ends its console sessions.
      </Text>
      {list.isError ? (
        <Alert color="red" variant="light" role="alert" py="xs">
          <Text size="sm">Failed to load app passwords: {errorMessage(list.error)}</Text>
        </Alert>
      ) : list.isPending ? (
        <Text size="sm" c="dimmed">
          Loading app passwords…
        </Text>
      ) : (
        <DataTable
          label={`App passwords of ${email}`}
          data={list.data.items}
          columns={columns}
          getRowId={(p) => String(p.id)}
          emptyText="No app passwords"
          minWidth={360}
        />
      )}
    </Stack>
  );
}

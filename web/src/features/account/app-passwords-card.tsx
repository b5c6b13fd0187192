import {
  type AppPassword,
  type AppPasswordCreated,
  AppPasswordCreateRequest,
} from '@mailroom/contract/app-passwords';
import {
  Paper,
  Button,
  Card,
  Code,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { formatWhen } from './format-when.ts';
import { useAppPasswords } from './use-app-passwords.ts';
import { useCreateAppPassword } from './use-create-app-password.ts';
import { useRevokeAppPassword } from './use-revoke-app-password.ts';

/**
 * A mailbox user's app passwords for mail programs (IMAP, POP3, SMTP). With a second factor on,
 * the mail server accepts only these, not the main password.
 */
const rowId = (p: AppPassword) => String(p.id);

export function AppPasswordsCard({ disabled }: { disabled: boolean }) {
  const q = useAppPasswords();
  const createPassword = useCreateAppPassword();
  const revokePassword = useRevokeAppPassword();
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { name: '' }, validate: zodValidate(AppPasswordCreateRequest) });
  const name = form.values.name;
  const [shown, setShown] = useState<AppPasswordCreated | null>(null);

  if (!q.data?.available) return null;
  const data = q.data;

  async function create() {
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      setShown(await createPassword.mutateAsync(name.trim()));
      form.reset();
    } catch (err) {
      form.setFieldError(
        'name',
        err instanceof ApiError ? (err.fieldErrors.name ?? err.message) : errorMessage(err),
      );
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: number, label: string) {
    try {
      await revokePassword.mutateAsync(id);
      notify({ type: 'success', title: 'App password revoked', message: label });
      if (shown?.id === id) setShown(null);
    } catch (err) {
      notify({ type: 'error', title: 'Could not revoke', message: errorMessage(err) });
    }
  }

  const columns: ColumnDef<AppPassword, unknown>[] = [
    { id: 'name', header: 'Name', meta: { title: true }, cell: ({ row }) => row.original.name },
    { id: 'createdAt', header: 'Created', cell: ({ row }) => formatWhen(row.original.createdAt) },
    {
      id: 'actions',
      header: () => <VisuallyHidden>Actions</VisuallyHidden>,
      meta: { actions: true, align: 'right', label: 'Actions' },
      cell: ({ row: { original: p } }) => (
        <Button
          size="xs"
          variant="outline"
          color="red"
          onClick={() => void revoke(p.id, p.name)}
          aria-label={`Revoke ${p.name}`}
        >
          Revoke
        </Button>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="app-pw-title">
      <Title order={2} size="h4" id="app-pw-title" mb="xs">
        App passwords
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {data.mfaEnabled
          ? 'Your account has a second factor: mail programs (IMAP, POP3, SMTP) sign in with an app password only, not your main password.'
          : 'Mail programs (IMAP, POP3, SMTP) can sign in with an app password. Once you add a second factor, only app passwords work there.'}
      </Text>
      <Stack gap="sm">
        {shown && (
          <Paper withBorder p="sm" radius="sm" role="status">
            <Text fw={600} mb={4}>
              New app password: {shown.name}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code fz="md" data-testid="new-app-password">
                {shown.password}
              </Code>
              <CopyButton value={shown.password} label="Copy the app password" />
            </Group>
            <Text size="sm" mt="xs">
              Copy it now: it is shown only once.
            </Text>
          </Paper>
        )}
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="App Name"
            placeholder="Phone mail app"
            {...form.getInputProps('name')}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button disabled={disabled || busy || !name.trim()} onClick={() => void create()}>
            Create app password
          </Button>
        </Group>
        {data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No app passwords yet.
          </Text>
        ) : (
          <DataTable
            label="App passwords"
            data={data.items}
            columns={columns}
            getRowId={rowId}
            emptyText="No app passwords yet."
            minWidth={360}
          />
        )}
      </Stack>
    </Card>
  );
}

import type { ResponseOf } from '@mailroom/contract/route';
import { type systemAdminRoutes, WebhookBody } from '@mailroom/contract/system-admin';
import { Button, Card, Group, PasswordInput, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { useAddWebhook } from '../use-add-webhook.ts';
import { useDeleteWebhook } from '../use-delete-webhook.ts';
import { useTestWebhook } from '../use-test-webhook.ts';
import { useWebhooks } from '../use-webhooks.ts';

type Webhook = ResponseOf<typeof systemAdminRoutes.addWebhook>;
const rowId = (h: Webhook) => String(h.id);

/** Alert webhooks: each alert raised or resolved is POSTed, signed with HMAC-SHA256 of the secret. */
export function WebhooksTab() {
  const hooks = useWebhooks();
  const addWebhook = useAddWebhook();
  const testWebhook = useTestWebhook();
  const deleteWebhook = useDeleteWebhook();
  const form = useForm({
    initialValues: { url: '', secret: '' },
    validate: zodValidate(WebhookBody),
    validateInputOnBlur: true,
  });
  const add = form.onSubmit(async (values) => {
    try {
      await addWebhook.mutateAsync(values);
      form.reset();
      notify({ type: 'success', title: 'Webhook added', message: values.url });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) form.setErrors(err.fieldErrors);
      else notify({ type: 'error', title: 'Adding the webhook failed', message: errorMessage(err) });
    }
  });
  const { mutateAsync: sendTest } = testWebhook;
  const { mutateAsync: remove } = deleteWebhook;
  const columns = useMemo<ColumnDef<Webhook, unknown>[]>(() => {
    const act = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
        notify({ type: 'success', title: what, message: 'Done.' });
      } catch (err) {
        notify({ type: 'error', title: `${what} failed`, message: errorMessage(err) });
      }
    };
    return [
      {
        id: 'url',
        header: 'URL',
        meta: { title: true },
        cell: ({ row }) => <span style={{ overflowWrap: 'anywhere' }}>{row.original.url}</span>,
      },
      {
        id: 'createdAt',
        header: 'Added',
        cell: ({ row }) => new Date(row.original.createdAt).toLocaleDateString(),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: h } }) => (
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => void act('Test event queued', () => sendTest(h.id))}
            >
              Send Test
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              onClick={() =>
                void confirmAction({
                  title: 'Delete webhook',
                  message: `Stop sending alerts to ${h.url}?`,
                  confirmLabel: 'Delete',
                  danger: true,
                }).then((ok) => {
                  if (ok) void act('Webhook deleted', () => remove(h.id));
                })
              }
            >
              Delete
            </Button>
          </Group>
        ),
      },
    ];
  }, [sendTest, remove]);
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        Alert Webhooks
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Alerts are sent as JSON with the header X-Mailroom-Signature: sha256=HMAC of the body with the secret;
        failed deliveries are retried with growing waits.
      </Text>
      <form onSubmit={add} noValidate>
        <Group align="flex-start" wrap="wrap" gap="sm" mb="md">
          <TextInput
            label="URL"
            placeholder="https://chat.example.com/hooks/…"
            w={320}
            {...form.getInputProps('url')}
          />
          <PasswordInput label="Secret" w={220} {...form.getInputProps('secret')} />
          <Button type="submit" mt={24}>
            Add Webhook
          </Button>
        </Group>
      </form>
      <DataTable
        label="Webhooks"
        data={hooks.data?.webhooks ?? []}
        columns={columns}
        getRowId={rowId}
        emptyText="No webhooks yet."
        minWidth={520}
      />
    </Card>
  );
}

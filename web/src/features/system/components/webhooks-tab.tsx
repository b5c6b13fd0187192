import { systemAdminRoutes as r, WebhookBody } from '@mailroom/contract/system-admin';
import { Button, Card, Group, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';

const key = ['system-admin', 'webhooks'] as const;

/** Alert webhooks: each alert raised or resolved is POSTed, signed with HMAC-SHA256 of the secret. */
export function WebhooksTab() {
  const qc = useQueryClient();
  const hooks = useQuery({ queryKey: key, queryFn: () => apiCall(r.webhooks) });
  const form = useForm({
    initialValues: { url: '', secret: '' },
    validate: zodValidate(WebhookBody),
    validateInputOnBlur: true,
  });
  const add = form.onSubmit(async (values) => {
    try {
      await apiCall(r.addWebhook, { body: values });
      form.reset();
      notify({ type: 'success', title: 'Webhook added', message: values.url });
      await qc.invalidateQueries({ queryKey: key });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) form.setErrors(err.fieldErrors);
      else notify({ type: 'error', title: 'Adding the webhook failed', message: errorMessage(err) });
    }
  });
  const act = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      notify({ type: 'success', title: what, message: 'Done.' });
    } catch (err) {
      notify({ type: 'error', title: `${what} failed`, message: errorMessage(err) });
    }
    await qc.invalidateQueries({ queryKey: key });
  };
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
      <Stack gap="xs">
        {(hooks.data?.webhooks ?? []).length === 0 ? (
          <Text size="sm" c="dimmed">
            No webhooks yet.
          </Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>URL</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hooks.data!.webhooks.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{h.url}</Table.Td>
                  <Table.Td>{new Date(h.createdAt).toLocaleDateString()}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={() =>
                          void act('Test event queued', () =>
                            apiCall(r.testWebhook, { params: { id: h.id } }),
                          )
                        }
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
                            if (ok)
                              void act('Webhook deleted', () =>
                                apiCall(r.deleteWebhook, { params: { id: h.id } }),
                              );
                          })
                        }
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

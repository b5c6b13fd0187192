import { UpdateAliasRequest, type Alias } from '@mailroom/contract/mail';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useUpdateAlias } from '../use-update-alias.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { AliasFields, type AliasValues } from './alias-fields.tsx';

/** Edit an alias's destination(s) and status (active/disabled). */
export function AliasEditModal({ alias, onClose }: { alias: Alias | null; onClose: () => void }) {
  return (
    <Modal opened={alias !== null} onClose={onClose} title="Edit Alias" size="lg" centered>
      {alias && <EditAliasForm key={alias.source} alias={alias} onClose={onClose} />}
    </Modal>
  );
}

function EditAliasForm({ alias, onClose }: { alias: Alias; onClose: () => void }) {
  const update = useUpdateAlias();
  const form = useForm<AliasValues>({
    initialValues: { source: alias.source, destination: alias.destination, status: alias.status },
    validate: zodValidate<AliasValues>(UpdateAliasRequest),
  });

  const submit = (values: AliasValues) => {
    const body = { destination: values.destination.trim(), status: values.status };
    update.mutate(
      { source: alias.source, body },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: 'Alias updated',
            message: `${alias.source} → ${body.destination.toLowerCase()} (${body.status}).`,
          });
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError) form.setErrors(err.fieldErrors);
          notify({ type: 'error', title: 'Failed to update email alias', message: errorMessage(err) });
        },
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        {update.isError && (
          <Alert color="red" variant="light" role="alert" title="Failed to update email alias">
            <Text size="sm">{errorMessage(update.error)}</Text>
          </Alert>
        )}
        <AliasFields form={form} mode="edit" />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { CreateAliasRequest } from '@mailroom/contract/mail';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useCreateAlias } from '../use-create-alias.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { ActionErrorAlert } from './action-error-alert.tsx';
import { AliasFields, type AliasValues } from './alias-fields.tsx';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';
import { DomainChoice, withDomain } from './domain-choice.tsx';

/** Add Alias: 'Source Email' and 'Destination Email', both valid addresses (§5). */
export function AliasCreateForm({ onClose }: { onClose: () => void }) {
  const create = useCreateAlias();
  const [createDomain, setCreateDomain] = useState(false);
  const form = useForm<AliasValues>({
    initialValues: { source: '', destination: '', status: 'active' },
    validate: zodValidate<AliasValues>(CreateAliasRequest),
  });
  useUnsavedChanges(form.isDirty());

  const submit = (values: AliasValues) => {
    const body = {
      source: values.source.trim(),
      destination: values.destination.trim(),
      ...(createDomain ? { createDomain: true } : {}),
    };
    create.mutate(body, {
      onSuccess: () => {
        notify({
          type: 'success',
          title: 'Alias created',
          message: `Mail to ${body.source.toLowerCase()} now goes to ${body.destination.toLowerCase()}.`,
        });
        form.reset();
        create.reset();
        onClose();
      },
      onError: (err) => {
        // One message for one error: a field's own message, or the alert above the form; no toast.
        if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      },
    });
  };

  const cancel = () => {
    form.reset();
    create.reset();
    onClose();
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="add-alias-title">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="add-alias-title">
            Add Alias
          </Title>
          {create.isError && !hasFieldErrors(create.error) && (
            <ActionErrorAlert
              title="Failed to create email alias"
              message={errorMessage(create.error)}
              onRetry={() => form.onSubmit(submit)()}
              retrying={create.isPending}
              onDismiss={() => create.reset()}
            />
          )}
          <AliasFields form={form} mode="create" />
          <Text size="xs" c="dimmed">
            A Source Email of @domain (for example @example.com) is the domain&apos;s catch-all: it takes mail
            for every address of the domain that is not a mailbox or another alias.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DomainChoice
              address={form.values.source}
              onPick={(d) => form.setFieldValue('source', withDomain(form.values.source, d))}
              createDomain={createDomain}
              onCreateDomain={setCreateDomain}
            />
          </SimpleGrid>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={cancel} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Alias
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** A refusal the form shows at its field needs no second message above the form. */
function hasFieldErrors(err: unknown): boolean {
  return err instanceof ApiError && Object.keys(err.fieldErrors).length > 0;
}

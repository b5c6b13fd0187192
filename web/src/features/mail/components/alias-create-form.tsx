import { CreateAliasRequest } from '@mailroom/contract/mail';
import { SimpleGrid, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { notify } from '../../../lib/notifications-store.ts';
import { useCreateAlias } from '../use-create-alias.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { AliasFields, type AliasValues } from './alias-fields.tsx';
import { CreateFormCard, showFieldErrors } from './create-form-card.tsx';
import { DomainChoice, withDomain } from './domain-choice.tsx';

/** Add Alias: 'Source Email' and 'Destination Email', both valid addresses (§5). */
export function AliasCreateForm({ onClose }: { onClose: () => void }) {
  const create = useCreateAlias();
  const [createDomain, setCreateDomain] = useState(false);
  const form = useForm<AliasValues>({
    initialValues: { source: '', destination: '', status: 'active' },
    validate: zodValidate<AliasValues>(CreateAliasRequest),
  });

  const submit = (values: AliasValues, close: () => void) => {
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
        close();
      },
      onError: showFieldErrors(form),
    });
  };

  return (
    <CreateFormCard
      title="Add Alias"
      titleId="add-alias-title"
      submitLabel="Create Alias"
      errorTitle="Failed to create email alias"
      form={form}
      create={create}
      onSubmit={submit}
      onClose={onClose}
    >
      <AliasFields form={form} mode="create" />
      <Text size="xs" c="dimmed">
        A Source Email of @domain (for example @example.com) is the domain&apos;s catch-all: it takes mail for
        every address of the domain that is not a mailbox or another alias.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DomainChoice
          address={form.values.source}
          onPick={(d) => form.setFieldValue('source', withDomain(form.values.source, d))}
          createDomain={createDomain}
          onCreateDomain={setCreateDomain}
        />
      </SimpleGrid>
    </CreateFormCard>
  );
}

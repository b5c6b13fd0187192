import { MailboxForm } from '@mailroom/contract/mail';
import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { notify } from '../../../lib/notifications-store.ts';
import { quotaFieldToBytes } from '../mail-units.ts';
import { useCreateMailbox } from '../use-create-mailbox.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { CreateFormCard, showFieldErrors } from './create-form-card.tsx';
import { DomainChoice, withDomain } from './domain-choice.tsx';
import { QuotaInput } from './quota-input.tsx';

type Values = { email: string; password: string; quota: number | string };

export interface MailboxCreateFormProps {
  /** The settings' Default Quota (MB) the form starts with; '' = unlimited. */
  defaultQuota: number | '';
  onClose: () => void;
}

/** Add Mailbox: Email, Password, Quota (MB, empty = unlimited), with the §5 rules. */
export function MailboxCreateForm({ defaultQuota, onClose }: MailboxCreateFormProps) {
  const create = useCreateMailbox();
  const [createDomain, setCreateDomain] = useState(false);
  const form = useForm<Values>({
    initialValues: { email: '', password: '', quota: defaultQuota },
    validate: zodValidate<Values>(MailboxForm),
  });

  const submit = (values: Values, close: () => void) => {
    const email = values.email.trim();
    create.mutate(
      {
        email,
        password: values.password,
        quota: quotaFieldToBytes(values.quota),
        ...(createDomain ? { createDomain: true } : {}),
      },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: 'Mailbox created',
            message: `Mailbox ${email.toLowerCase()} was created.`,
          });
          close();
        },
        onError: showFieldErrors(form),
      },
    );
  };

  return (
    <CreateFormCard
      title="Add Mailbox"
      titleId="add-mailbox-title"
      submitLabel="Create Mailbox"
      errorTitle="Failed to create mailbox"
      form={form}
      create={create}
      onSubmit={submit}
      onClose={onClose}
      mb="md"
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <DomainChoice
          address={form.values.email}
          onPick={(d) => form.setFieldValue('email', withDomain(form.values.email, d))}
          createDomain={createDomain}
          onCreateDomain={setCreateDomain}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="Email"
          placeholder="user@example.com"
          autoComplete="off"
          required
          withAsterisk
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          required
          withAsterisk
          {...form.getInputProps('password')}
        />
        <QuotaInput {...form.getInputProps('quota')} />
      </SimpleGrid>
    </CreateFormCard>
  );
}

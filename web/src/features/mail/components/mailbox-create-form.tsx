import { MailboxForm } from '@mailroom/contract/mail';
import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { quotaFieldToBytes } from '../mail-units.ts';
import { useCreateMailbox } from '../use-create-mailbox.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { ActionErrorAlert } from './action-error-alert.tsx';
import { DomainChoice, withDomain } from './domain-choice.tsx';
import { QuotaInput } from './quota-input.tsx';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';

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
  useUnsavedChanges(form.isDirty());

  const submit = (values: Values) => {
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
          form.reset();
          create.reset();
          onClose();
        },
        onError: (err) => {
          // One message for one error: a field's own message, or the alert above the form; no toast.
          if (err instanceof ApiError) form.setErrors(err.fieldErrors);
        },
      },
    );
  };

  const cancel = () => {
    form.reset();
    create.reset();
    onClose();
  };

  return (
    <Card withBorder radius="md" padding="lg" mb="md" component="section" aria-labelledby="add-mailbox-title">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="add-mailbox-title">
            Add Mailbox
          </Title>
          {create.isError && !hasFieldErrors(create.error) && (
            <ActionErrorAlert
              title="Failed to create mailbox"
              message={errorMessage(create.error)}
              onRetry={() => form.onSubmit(submit)()}
              retrying={create.isPending}
              onDismiss={() => create.reset()}
            />
          )}
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
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={cancel} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Mailbox
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

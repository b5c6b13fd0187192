import { RecoveryEmailRequest, type RecoveryMethod, RecoveryVerifyRequest } from '@mailroom/contract/mfa';
import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useAddRecoveryEmail } from './use-add-recovery-email.ts';
import { useVerifyRecoveryEmail } from './use-verify-recovery-email.ts';

/** A recovery e-mail address: a code is mailed to it through this server and typed back here. */
export function RecoveryEmailCard({ disabled }: { disabled: boolean }) {
  const addEmail = useAddRecoveryEmail();
  const verifyEmail = useVerifyRecoveryEmail();
  const [pending, setPending] = useState<RecoveryMethod | null>(null);
  const [busy, setBusy] = useState(false);
  // One form, two steps: the address, then the code mailed to it; each step checks its own field.
  const form = useForm({
    initialValues: { email: '', code: '' },
    transformValues: (v) => ({ email: v.email.trim(), code: v.code.trim() }),
    validate: (v) =>
      pending
        ? zodValidate(RecoveryVerifyRequest)({ code: v.code.trim() })
        : zodValidate(RecoveryEmailRequest)({ email: v.email.trim() }),
  });
  const { email, code } = form.values;
  const field = pending ? 'code' : 'email';

  async function run(fn: (values: { email: string; code: string }) => Promise<void>) {
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      await fn(form.getTransformedValues());
    } catch (err) {
      form.setFieldError(
        field,
        err instanceof ApiError ? (Object.values(err.fieldErrors)[0] ?? err.message) : 'Failed',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="recovery-title">
      <Title order={2} size="h4" id="recovery-title" mb="xs">
        Recovery e-mail
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        A verified address administrators can use to reach you when you lose your device. SMS is unavailable:
        no SMS provider is configured.
      </Text>
      {!pending ? (
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Recovery Email"
            type="email"
            {...form.getInputProps('email')}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            disabled={disabled || busy || !email.trim()}
            onClick={() =>
              void run(async (v) => {
                setPending(await addEmail.mutateAsync(v.email));
              })
            }
          >
            Send code
          </Button>
        </Group>
      ) : (
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={`Code sent to ${pending.methodValue}`}
            inputMode="numeric"
            {...form.getInputProps('code')}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            disabled={busy || code.trim().length !== 6}
            onClick={() =>
              void run(async (v) => {
                await verifyEmail.mutateAsync({ id: pending.id, code: v.code });
                notify({ type: 'success', title: 'Recovery e-mail verified', message: pending.methodValue });
                setPending(null);
                form.reset();
              })
            }
          >
            Verify
          </Button>
        </Group>
      )}
    </Card>
  );
}

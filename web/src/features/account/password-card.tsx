import { PasswordChangeRequest } from '@mailroom/contract/mfa';
import { Button, Card, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { sessionsEnded } from './ended-sessions.ts';
import { useChangePassword } from './use-change-password.ts';

export function PasswordCard() {
  const changePassword = useChangePassword();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '' },
    validate: zodValidate(PasswordChangeRequest),
    // The new password's length is said while typing; the current one is checked by the server.
    validateInputOnChange: ['newPassword'],
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await changePassword.mutateAsync(values);
      sessionsEnded('Password changed. Sign in with the new password.');
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      setBusy(false);
    }
  });
  const v = form.values;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="pw-title">
      <Title order={2} size="h4" id="pw-title" mb="xs">
        Change password
      </Title>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack>
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <Button
            type="submit"
            disabled={busy || !v.currentPassword || v.newPassword.length < 12}
            w="fit-content"
          >
            Change password
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

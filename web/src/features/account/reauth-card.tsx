import { ReauthRequest } from '@mailroom/contract/mfa';
import { Alert, Button, Group, PasswordInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useReauth } from './use-reauth.ts';

/** Security changes need the password proved recently: asked here when it is not. */
export function ReauthCard({ onDone }: { onDone: () => void }) {
  const reauth = useReauth();
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { password: '' }, validate: zodValidate(ReauthRequest) });
  const submit = form.onSubmit(async ({ password }) => {
    setBusy(true);
    try {
      await reauth.mutateAsync(password);
      form.reset();
      onDone();
    } catch (err) {
      form.setFieldError(
        'password',
        err instanceof ApiError ? (err.fieldErrors.password ?? err.message) : 'Failed',
      );
    } finally {
      setBusy(false);
    }
  });
  return (
    <Alert color="blue" variant="light" title="Confirm it is you" role="status">
      <form onSubmit={submit} aria-label="Confirm your password">
        <Group align="flex-end" wrap="wrap">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('password')}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" disabled={!form.values.password || busy}>
            Confirm
          </Button>
        </Group>
      </form>
    </Alert>
  );
}

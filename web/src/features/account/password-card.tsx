import { Button, Card, PasswordInput, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client.ts';
import { sessionsEnded } from './ended-sessions.ts';
import { useChangePassword } from './use-change-password.ts';

export function PasswordCard() {
  const changePassword = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next });
      sessionsEnded('Password changed. Sign in with the new password.');
    } catch (err) {
      setErrors(err instanceof ApiError ? { ...err.fieldErrors, form: err.message } : { form: 'Failed' });
      setBusy(false);
    }
  }
  const tooShort = next.length > 0 && next.length < 12 ? 'New Password must be at least 12' : undefined;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="pw-title">
      <Title order={2} size="h4" id="pw-title" mb="xs">
        Change password
      </Title>
      <form onSubmit={(e) => void submit(e)} aria-label="Change password">
        <Stack>
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={errors.currentPassword}
          />
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={tooShort ?? errors.newPassword}
          />
          <Button type="submit" disabled={busy || !current || next.length < 12} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

import { Alert, Button, Group, PasswordInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client.ts';
import { useReauth } from './use-reauth.ts';

/** Security changes need the password proved recently: asked here when it is not. */
export function ReauthCard({ onDone }: { onDone: () => void }) {
  const reauth = useReauth();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await reauth.mutateAsync(password);
      setPassword('');
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldErrors.password ?? err.message) : 'Failed');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Alert color="blue" variant="light" title="Confirm it is you" role="status">
      <form onSubmit={(e) => void submit(e)} aria-label="Confirm your password">
        <Group align="flex-end" wrap="wrap">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={error}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" disabled={!password || busy}>
            Confirm
          </Button>
        </Group>
      </form>
    </Alert>
  );
}

import type { RecoveryMethod } from '@mailroom/contract/mfa';
import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useAddRecoveryEmail } from './use-add-recovery-email.ts';
import { useVerifyRecoveryEmail } from './use-verify-recovery-email.ts';

/** A recovery e-mail address: a code is mailed to it through this server and typed back here. */
export function RecoveryEmailCard({ disabled }: { disabled: boolean }) {
  const addEmail = useAddRecoveryEmail();
  const verifyEmail = useVerifyRecoveryEmail();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState<RecoveryMethod | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(fn: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof ApiError ? (Object.values(err.fieldErrors)[0] ?? err.message) : 'Failed');
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
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={error}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            disabled={disabled || busy || !email.trim()}
            onClick={() =>
              void run(async () => {
                setPending(await addEmail.mutateAsync(email.trim()));
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
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            disabled={busy || code.trim().length !== 6}
            onClick={() =>
              void run(async () => {
                await verifyEmail.mutateAsync({ id: pending.id, code: code.trim() });
                notify({ type: 'success', title: 'Recovery e-mail verified', message: pending.methodValue });
                setPending(null);
                setCode('');
                setEmail('');
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

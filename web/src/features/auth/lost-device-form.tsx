import { Alert, Anchor, Button, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client.ts';
import { useRequestMfaRecovery } from './use-request-mfa-recovery.ts';

const TYPES = ['Device Lost', 'Backup Codes Exhausted', 'Account Lockout'] as const;

/** "Lost my device": asks the administrators to reset the account's second factors. */
export function LostDeviceForm({ email: initialEmail, onBack }: { email: string; onBack: () => void }) {
  const requestRecovery = useRequestMfaRecovery();
  const [email, setEmail] = useState(initialEmail);
  const [requestType, setRequestType] = useState<string>(TYPES[0]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const res = await requestRecovery({
        email: email.trim(),
        requestType: requestType as (typeof TYPES)[number],
        reason: reason.trim(),
      });
      setSent(res.message ?? 'Request sent.');
    } catch (err) {
      setFailure(
        err instanceof ApiError && err.serverMessage ? err.serverMessage : 'The request could not be sent.',
      );
    } finally {
      setBusy(false);
    }
  }

  if (sent)
    return (
      <Stack>
        <Alert color="green" variant="light" title="Recovery requested" role="status">
          {sent}
        </Alert>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to sign in
        </Anchor>
      </Stack>
    );

  const valid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) && reason.trim().length > 0;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Lost my device">
      <Stack>
        <div>
          <Text fw={600}>Lost my device</Text>
          <Text size="sm" c="dimmed">
            An administrator reviews the request. Once approved, your second factors are reset and you enrol a
            new one at your next sign-in.
          </Text>
        </div>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Email address"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          disabled={busy}
        />
        <Select
          label="Request type"
          data={[...TYPES]}
          value={requestType}
          onChange={(v) => setRequestType(v ?? TYPES[0])}
          allowDeselect={false}
          disabled={busy}
        />
        <Textarea
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          disabled={busy}
        />
        <Button type="submit" disabled={!valid || busy}>
          {busy ? 'Sending...' : 'Send request'}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}

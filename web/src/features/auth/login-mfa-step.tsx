import type { LoginMfaChallenge, LoginSession } from '@mailroom/contract/auth';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client.ts';
import { useMfaEmailCode } from './use-mfa-email-code.ts';
import { useMfaVerify } from './use-mfa-verify.ts';
import { useMfaWebauthnOptions } from './use-mfa-webauthn-options.ts';

type CodeMethod = 'totp' | 'backup_code' | 'email_code';

const METHOD_LABEL: Record<CodeMethod, string> = {
  totp: 'Authenticator app',
  backup_code: 'Backup code',
  email_code: 'E-mail code',
};

function stepError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return 'Unable to connect to server. Please check your connection.';
    if (err.serverMessage && [400, 401, 429].includes(err.status)) return err.serverMessage;
  }
  if (err instanceof Error && err.name === 'NotAllowedError')
    return 'The security key was not used. Try again.';
  return 'An error occurred during verification. Please try again.';
}

/** The second step of a sign-in: an authenticator code, a backup code, or a passkey. */
export function LoginMfaStep({
  challenge,
  onDone,
  onCancel,
  onLostDevice,
}: {
  challenge: LoginMfaChallenge;
  onDone: (session: LoginSession) => void;
  onCancel: () => void;
  onLostDevice: () => void;
}) {
  const emailCode = useMfaEmailCode();
  const verify = useMfaVerify();
  const webauthnOptions = useMfaWebauthnOptions();
  const codeMethods = challenge.methods.filter((m): m is CodeMethod => m !== 'webauthn');
  const [method, setMethod] = useState<CodeMethod>(codeMethods[0] ?? 'totp');
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function mailCode() {
    setBusy(true);
    setFailure(null);
    try {
      const res = await emailCode(challenge.challenge);
      setSentTo(res.sentTo);
    } catch (err) {
      setFailure(stepError(err));
    } finally {
      setBusy(false);
    }
  }

  async function finish(body: Record<string, unknown>) {
    setBusy(true);
    setFailure(null);
    try {
      const res = await verify({ challenge: challenge.challenge, trust_device: trust, ...body });
      onDone(res);
    } catch (err) {
      setFailure(stepError(err));
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return;
    await finish({ method, code: code.trim() });
  }

  async function passkey() {
    setBusy(true);
    setFailure(null);
    try {
      const options = await webauthnOptions(challenge.challenge);
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const credential = await startAuthentication({ optionsJSON: options as never });
      await finish({ method: 'webauthn', credential });
    } catch (err) {
      setFailure(stepError(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Verify your identity">
      <Stack>
        <div>
          <Text fw={600}>Two-step verification</Text>
          <Text size="sm" c="dimmed">
            Signed in as {challenge.email}. Confirm it is you with your second factor.
          </Text>
        </div>
        {failure && (
          <Alert
            color="red"
            variant="light"
            title="Verification failed"
            icon={<IconAlertCircle aria-hidden />}
            role="alert"
          >
            {failure}
          </Alert>
        )}
        {challenge.methods.includes('webauthn') && (
          <Button
            variant="light"
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => void passkey()}
            disabled={busy}
          >
            Use a passkey or security key
          </Button>
        )}
        {codeMethods.length > 0 && (
          <>
            {codeMethods.length > 1 && (
              <SegmentedControl
                aria-label="Code type"
                value={method}
                onChange={(v) => {
                  setMethod(v as CodeMethod);
                  setCode('');
                }}
                data={codeMethods.map((m) => ({
                  value: m,
                  label: METHOD_LABEL[m],
                }))}
              />
            )}
            {method === 'email_code' && (
              <Button variant="default" onClick={() => void mailCode()} disabled={busy}>
                {sentTo ? 'Send another code' : 'Send me a code'}
              </Button>
            )}
            <TextInput
              label={
                method === 'totp'
                  ? 'Authentication code'
                  : method === 'email_code'
                    ? 'E-mail code'
                    : 'Backup code'
              }
              description={
                method === 'totp'
                  ? 'The 6-digit code from your authenticator app'
                  : method === 'email_code'
                    ? sentTo
                      ? `The 6-digit code sent to ${sentTo} (valid 10 minutes)`
                      : 'Send a 6-digit code to your verified e-mail address'
                    : 'One of your saved backup codes'
              }
              name="code"
              autoComplete="one-time-code"
              inputMode={method === 'backup_code' ? 'text' : 'numeric'}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              disabled={busy}
              data-autofocus
            />
            <Checkbox
              label="Trust this browser"
              checked={trust}
              onChange={(e) => setTrust(e.currentTarget.checked)}
              disabled={busy}
            />
            <Button type="submit" fullWidth disabled={!code.trim() || busy}>
              {busy ? 'Verifying...' : 'Verify'}
            </Button>
          </>
        )}
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            Back to sign in
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onLostDevice}>
            Lost my device
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

import { accountsRoutes } from '@mailroom/contract/accounts';
import { mfaRoutes } from '@mailroom/contract/mfa';
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError, apiCall } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Add account (a console administrator), optionally required to enrol MFA at first sign-in. */
export function AccountModal({
  opened,
  onClose,
  onDone,
}: {
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [requireMfa, setRequireMfa] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const emailError = email && !EMAIL_RE.test(email.trim()) ? 'Email format is invalid' : undefined;
  const pwError = password && password.length < 12 ? 'Password must be at least 12' : undefined;
  async function save() {
    setBusy(true);
    setErrors({});
    try {
      await apiCall(accountsRoutes.create, { body: { email: email.trim(), password } });
      if (requireMfa) await apiCall(mfaRoutes.enable, { body: { email: email.trim() } });
      notify({ type: 'success', title: 'Account added', message: `${email.trim()} can sign in now.` });
      setEmail('');
      setPassword('');
      onDone();
      onClose();
    } catch (e) {
      setErrors(
        e instanceof ApiError
          ? { ...e.fieldErrors, email: e.fieldErrors.email ?? (e.status === 409 ? e.message : '') }
          : {},
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title="Add account">
      <Stack>
        <TextInput
          label="Email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={emailError ?? (errors.email || undefined)}
        />
        <PasswordInput
          label="Password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={pwError ?? errors.password}
        />
        <Checkbox
          label="Require MFA enrolment at first sign-in"
          checked={requireMfa}
          onChange={(e) => setRequireMfa(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => void save()}
            disabled={!email || !password || !!emailError || !!pwError || busy}
            loading={busy}
          >
            Add account
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

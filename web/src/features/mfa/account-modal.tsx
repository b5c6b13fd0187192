import { CONSOLE_ROLE_LABELS, type ConsoleAccount, type ConsoleRole } from '@mailroom/contract/accounts';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useCreateConsoleAccount } from './use-create-console-account.ts';
import { useSetUserMfa } from './use-set-user-mfa.ts';
import { useUpdateConsoleAccount } from './use-update-console-account.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ROLE_OPTIONS = (Object.keys(CONSOLE_ROLE_LABELS) as ConsoleRole[]).map((value) => ({
  value,
  label: CONSOLE_ROLE_LABELS[value],
}));

/**
 * Add account (a console administrator or a domain administrator of the chosen domains),
 * optionally required to enrol MFA at first sign-in; with `account`, edit its role and domains.
 */
export function AccountModal({
  opened,
  onClose,
  onDone,
  account = null,
  domainOptions = [],
}: {
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
  account?: ConsoleAccount | null;
  /** Known mail domains and DNS zones, offered in the domains field. */
  domainOptions?: string[];
}) {
  const editing = account !== null;
  const createAccount = useCreateConsoleAccount();
  const updateAccount = useUpdateConsoleAccount();
  const setUserMfa = useSetUserMfa();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<ConsoleRole>('admin');
  const [domains, setDomains] = useState<string[]>([]);
  const [requireMfa, setRequireMfa] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setEmail(account?.email ?? '');
    setPassword('');
    setRole(account?.role ?? 'admin');
    setDomains(account?.domains ?? []);
    setErrors({});
  }, [opened, account]);
  const emailError = email && !EMAIL_RE.test(email.trim()) ? 'Email format is invalid' : undefined;
  const pwError = password && password.length < 12 ? 'Password must be at least 12' : undefined;
  const domainsMissing = role === 'domain-admin' && domains.length === 0;
  async function save() {
    setBusy(true);
    setErrors({});
    try {
      const scope = role === 'domain-admin' ? { role, domains } : { role };
      if (editing) {
        await updateAccount.mutateAsync({
          email: account.email,
          body: {
            ...scope,
            domains: role === 'domain-admin' ? domains : [],
            ...(password ? { password } : {}),
          },
        });
        notify({ type: 'success', title: 'Account updated', message: `${account.email} was updated.` });
      } else {
        await createAccount.mutateAsync({ email: email.trim(), password, ...scope });
        if (requireMfa) await setUserMfa.mutateAsync({ email: email.trim(), on: true });
        notify({ type: 'success', title: 'Account added', message: `${email.trim()} can sign in now.` });
      }
      onDone();
      onClose();
    } catch (e) {
      setErrors(
        e instanceof ApiError
          ? {
              ...e.fieldErrors,
              email: e.fieldErrors.email ?? (e.status === 409 || e.status === 403 ? e.message : ''),
            }
          : {},
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={editing ? `Edit ${account.email}` : 'Add account'}>
      <Stack>
        <TextInput
          label="Email"
          value={email}
          disabled={editing}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={emailError ?? (errors.email || undefined)}
        />
        <PasswordInput
          label={editing ? 'New password (optional)' : 'Password'}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={pwError ?? errors.password}
        />
        <Select
          label="Role"
          data={ROLE_OPTIONS}
          value={role}
          allowDeselect={false}
          onChange={(v) => setRole(v === 'domain-admin' ? 'domain-admin' : 'admin')}
          error={errors.role}
        />
        {role === 'domain-admin' && (
          <TagsInput
            label="Domains"
            description="The mail domains and DNS zones this account manages"
            placeholder="example.com"
            data={domainOptions}
            value={domains}
            onChange={(v) => setDomains(v.map((d) => d.trim().toLowerCase()).filter(Boolean))}
            error={errors.domains ?? (domainsMissing ? 'Assign at least one domain' : undefined)}
            clearable
          />
        )}
        {!editing && (
          <Checkbox
            label="Require MFA enrolment at first sign-in"
            checked={requireMfa}
            onChange={(e) => setRequireMfa(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => void save()}
            disabled={
              (!editing && (!email || !password)) || !!emailError || !!pwError || domainsMissing || busy
            }
            loading={busy}
          >
            {editing ? 'Save' : 'Add account'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

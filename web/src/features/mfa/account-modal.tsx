import {
  CONSOLE_ROLE_LABELS,
  type ConsoleAccount,
  ConsoleAccountUpdate,
  type ConsoleRole,
  NewConsoleAccount,
} from '@mailroom/contract/accounts';
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
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useCreateConsoleAccount } from './use-create-console-account.ts';
import { useSetUserMfa } from './use-set-user-mfa.ts';
import { useUpdateConsoleAccount } from './use-update-console-account.ts';

const ROLE_OPTIONS = (Object.keys(CONSOLE_ROLE_LABELS) as ConsoleRole[]).map((value) => ({
  value,
  label: CONSOLE_ROLE_LABELS[value],
}));

interface Values {
  email: string;
  password: string;
  role: ConsoleRole;
  domains: string[];
  requireMfa: boolean;
}
const EMPTY: Values = { email: '', password: '', role: 'admin', domains: [], requireMfa: true };

/** The request of Add account: a domain administrator's domains only. */
const toCreate = (v: Values) => ({
  email: v.email.trim(),
  password: v.password,
  role: v.role,
  ...(v.role === 'domain-admin' ? { domains: v.domains } : {}),
});

/** The request of Save: the domains emptied for an administrator, the password only when typed. */
const toUpdate = (v: Values) => ({
  role: v.role,
  domains: v.role === 'domain-admin' ? v.domains : [],
  ...(v.password ? { password: v.password } : {}),
});

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
  const [busy, setBusy] = useState(false);
  const form = useForm<Values>({
    initialValues: EMPTY,
    validate: (v) =>
      account !== null
        ? zodValidate(ConsoleAccountUpdate, toUpdate)(v)
        : zodValidate(NewConsoleAccount, toCreate)(v),
    validateInputOnChange: ['email', 'password', 'domains'],
  });
  const { setValues, resetDirty, clearErrors } = form;
  useEffect(() => {
    if (!opened) return;
    setValues({
      email: account?.email ?? '',
      password: '',
      role: account?.role ?? 'admin',
      domains: account?.domains ?? [],
      requireMfa: true,
    });
    resetDirty();
    clearErrors();
  }, [opened, account, setValues, resetDirty, clearErrors]);
  const v = form.values;
  const domainsMissing = v.role === 'domain-admin' && v.domains.length === 0;
  const save = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      if (editing) {
        await updateAccount.mutateAsync({ email: account.email, body: toUpdate(values) });
        notify({ type: 'success', title: 'Account updated', message: `${account.email} was updated.` });
      } else {
        const email = values.email.trim();
        await createAccount.mutateAsync(toCreate(values));
        if (values.requireMfa) await setUserMfa.mutateAsync({ email, on: true });
        notify({ type: 'success', title: 'Account added', message: `${email} can sign in now.` });
      }
      onDone();
      onClose();
    } catch (e) {
      if (e instanceof ApiError)
        form.setErrors({
          ...e.fieldErrors,
          email: e.fieldErrors.email ?? (e.status === 409 || e.status === 403 ? e.message : undefined),
        });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title={editing ? `Edit ${account.email}` : 'Add account'}>
      <form onSubmit={save} noValidate>
        <Stack>
          <TextInput label="Email" disabled={editing} {...form.getInputProps('email')} />
          <PasswordInput
            label={editing ? 'New password (optional)' : 'Password'}
            {...form.getInputProps('password')}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('role')}
            onChange={(r) => form.setFieldValue('role', r === 'domain-admin' ? 'domain-admin' : 'admin')}
          />
          {v.role === 'domain-admin' && (
            <TagsInput
              label="Domains"
              description="The mail domains and DNS zones this account manages"
              placeholder="example.com"
              data={domainOptions}
              value={v.domains}
              onChange={(d) =>
                form.setFieldValue('domains', d.map((x) => x.trim().toLowerCase()).filter(Boolean))
              }
              error={form.errors.domains ?? (domainsMissing ? 'Assign at least one domain' : undefined)}
              clearable
            />
          )}
          {!editing && (
            <Checkbox
              label="Require MFA enrolment at first sign-in"
              {...form.getInputProps('requireMfa', { type: 'checkbox' })}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !form.isValid()} loading={busy}>
              {editing ? 'Save' : 'Add account'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

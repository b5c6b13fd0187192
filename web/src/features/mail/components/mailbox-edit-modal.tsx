import { ChangePasswordRequest, MailboxForm, type Mailbox } from '@mailroom/contract/mail';
import { Alert, Button, Divider, Group, Modal, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { bytesToQuotaField, quotaFieldToBytes, type QuotaField } from '../mail-units.ts';
import { useChangeMailboxPassword } from '../use-change-mailbox-password.ts';
import { useChangeMailboxQuota } from '../use-change-mailbox-quota.ts';
import { useSetMailboxSuspended } from '../use-set-mailbox-suspended.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { MailboxAppPasswords } from './mailbox-app-passwords.tsx';
import { QuotaInput } from './quota-input.tsx';

export interface MailboxEditModalProps {
  mailbox: Mailbox | null;
  onClose: () => void;
  /** The mailbox as it is after a successful change. */
  onChanged: (mailbox: Mailbox) => void;
}

const QuotaOnly = MailboxForm.pick({ quota: true });

/** Edit a mailbox: its quota, a new password, suspend or resume. Each change is its own call. */
export function MailboxEditModal({ mailbox, onClose, onChanged }: MailboxEditModalProps) {
  return (
    <Modal opened={mailbox !== null} onClose={onClose} title="Edit Mailbox" size="lg" centered>
      {mailbox && <EditSections key={mailbox.email} mailbox={mailbox} onChanged={onChanged} />}
    </Modal>
  );
}

function EditSections({ mailbox, onChanged }: { mailbox: Mailbox; onChanged: (m: Mailbox) => void }) {
  const email = mailbox.email;
  const quota = useChangeMailboxQuota();
  const password = useChangeMailboxPassword();
  const suspend = useSetMailboxSuspended();

  const quotaForm = useForm<{ quota: QuotaField }>({
    initialValues: { quota: bytesToQuotaField(mailbox.quota) },
    validate: zodValidate(QuotaOnly),
  });
  const passwordForm = useForm<{ password: string }>({
    initialValues: { password: '' },
    validate: zodValidate(ChangePasswordRequest),
  });

  const saveQuota = ({ quota: value }: { quota: QuotaField }) => {
    const bytes = quotaFieldToBytes(value);
    quota.mutate(
      { email, quota: bytes },
      {
        onSuccess: () => {
          const shown = bytes === 0 ? 'Unlimited' : formatBytes(bytes);
          notify({
            type: 'success',
            title: 'Quota changed',
            message: `The quota of ${email} is now ${shown}.`,
          });
          quotaForm.resetDirty();
          onChanged({ ...mailbox, quota: bytes });
        },
        onError: (err) => {
          if (err instanceof ApiError) quotaForm.setErrors(err.fieldErrors);
          notify({ type: 'error', title: 'Failed to change quota', message: errorMessage(err) });
        },
      },
    );
  };

  const savePassword = ({ password: value }: { password: string }) => {
    password.mutate(
      { email, password: value },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: 'Password changed',
            message: `A new password is set for ${email}.`,
          });
          passwordForm.reset();
        },
        onError: (err) => {
          if (err instanceof ApiError) passwordForm.setErrors(err.fieldErrors);
          notify({ type: 'error', title: 'Failed to change password', message: errorMessage(err) });
        },
      },
    );
  };

  const suspended = mailbox.status === 'suspended';
  const toggleSuspended = () => {
    suspend.mutate(
      { email, suspended: !suspended },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: suspended ? 'Mailbox resumed' : 'Mailbox suspended',
            message: suspended
              ? `${email} can sign in and receive mail again.`
              : `${email} can no longer sign in or receive mail; its mail is kept.`,
          });
          onChanged({ ...mailbox, status: suspended ? 'active' : 'suspended' });
        },
        onError: (err) => {
          notify({
            type: 'error',
            title: suspended ? 'Failed to resume mailbox' : 'Failed to suspend mailbox',
            message: errorMessage(err),
          });
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Group gap="xs" wrap="wrap">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
        <StatusBadge status={mailbox.status} />
      </Group>
      <Text size="sm" c="dimmed">
        Used {formatBytes(mailbox.used)} of {mailbox.quota === 0 ? 'Unlimited' : formatBytes(mailbox.quota)}
      </Text>

      <Divider />
      <form onSubmit={quotaForm.onSubmit(saveQuota)} noValidate aria-labelledby="edit-quota-title">
        <Stack gap="xs">
          <Title order={3} size="h5" id="edit-quota-title">
            Quota
          </Title>
          {quota.isError && <InlineError message={errorMessage(quota.error)} />}
          <Group align="flex-end" gap="xs" wrap="wrap">
            <QuotaInput {...quotaForm.getInputProps('quota')} style={{ flex: 1, minWidth: 180 }} />
            <Button type="submit" loading={quota.isPending}>
              Save Quota
            </Button>
          </Group>
        </Stack>
      </form>

      <Divider />
      <form onSubmit={passwordForm.onSubmit(savePassword)} noValidate aria-labelledby="edit-password-title">
        <Stack gap="xs">
          <Title order={3} size="h5" id="edit-password-title">
            Password
          </Title>
          {password.isError && <InlineError message={errorMessage(password.error)} />}
          <Group align="flex-start" gap="xs" wrap="wrap">
            <PasswordInput
              label="New Password"
              autoComplete="new-password"
              style={{ flex: 1, minWidth: 180 }}
              {...passwordForm.getInputProps('password')}
            />
            <Button type="submit" loading={password.isPending} mt={25}>
              Set Password
            </Button>
          </Group>
        </Stack>
      </form>

      <Divider />
      <Stack gap="xs">
        <Title order={3} size="h5">
          Status
        </Title>
        {suspend.isError && <InlineError message={errorMessage(suspend.error)} />}
        <Text size="sm">
          {suspended
            ? 'Suspended: this mailbox cannot sign in and receives no mail. Its mail is kept.'
            : 'Active: this mailbox can sign in and receives mail.'}
        </Text>
        <Group>
          <Button
            color={suspended ? 'green' : 'orange'}
            variant="light"
            onClick={toggleSuspended}
            loading={suspend.isPending}
          >
            {suspended ? 'Resume Mailbox' : 'Suspend Mailbox'}
          </Button>
        </Group>
      </Stack>

      <Divider />
      <MailboxAppPasswords email={email} />
    </Stack>
  );
}

function InlineError({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert" py="xs">
      <Text size="sm">{message}</Text>
    </Alert>
  );
}

import { Alert, Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isMailboxUser, useAuth } from '../../api/auth-store.ts';
import { errorMessage } from '../../api/client.ts';
import { signOut } from '../../api/sign-out.ts';
import { LoadState } from '../../components/load-state.tsx';
import { AppPasswordsCard } from './app-passwords-card.tsx';
import { BackupCodesCard } from './backup-codes-card.tsx';
import { DevicesCard } from './devices-card.tsx';
import { PasswordCard } from './password-card.tsx';
import { ReauthCard } from './reauth-card.tsx';
import { RecoveryEmailCard } from './recovery-email-card.tsx';
import { SecurityKeyCard } from './security-key-card.tsx';
import { TotpEnrolCard } from './totp-enrol-card.tsx';
import { useAccountMfa, useRefreshAccount } from './use-account-mfa.ts';

/**
 * The signed-in account's own security: second factors (enrol, make primary, remove), backup
 * codes and password. An account that must enrol lands here right after signing in.
 */
export default function AccountPage() {
  const { email } = useAuth();
  const q = useAccountMfa();
  const refresh = useRefreshAccount();
  const mfa = q.data;
  const recent = mfa?.reauthUntil != null && Date.parse(mfa.reauthUntil) > Date.now();
  const done = () => void refresh();

  return (
    <Box component="main" maw={920} mx="auto" p="md">
      <Group justify="space-between" mb="lg" wrap="wrap">
        <Group gap="xs">
          <IconShieldLock size={28} aria-hidden />
          <div>
            <Title order={1} size="h2">
              My Account
            </Title>
            <Text c="dimmed" size="sm">
              {email}: sign-in security
            </Text>
          </div>
        </Group>
        <Group gap="xs">
          {mfa && !mfa.enrolRequired && !isMailboxUser() && (
            <Anchor component={Link} to="/dashboard">
              Back to the dashboard
            </Anchor>
          )}
          <Button variant="default" size="xs" onClick={() => void signOut()}>
            Sign out
          </Button>
        </Group>
      </Group>
      <LoadState
        loading={q.isPending}
        error={q.error ? errorMessage(q.error) : null}
        errorTitle="Failed to load your account"
        onRetry={() => void q.refetch()}
      >
        {mfa && (
          <Stack>
            {mfa.enrolRequired && (
              <Alert color="blue" variant="light" title="Second factor required" role="alert">
                Your account must enrol a second factor before you can use the console. Add an authenticator
                app or a security key.
              </Alert>
            )}
            {!recent && <ReauthCard onDone={done} />}
            <DevicesCard devices={mfa.devices} canChange={recent} onDone={done} />
            {mfa.allowedMethods.includes('TOTP') && <TotpEnrolCard disabled={!recent} onDone={done} />}
            {mfa.allowedMethods.includes('Hardware Token') && (
              <SecurityKeyCard disabled={!recent} onDone={done} />
            )}
            <BackupCodesCard mfa={mfa} disabled={!recent} onDone={done} />
            <AppPasswordsCard disabled={!recent} />
            <RecoveryEmailCard disabled={!recent} />
            <PasswordCard />
          </Stack>
        )}
      </LoadState>
    </Box>
  );
}

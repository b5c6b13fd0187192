import { loginMessages } from '@mailroom/contract/messages';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconMail } from '@tabler/icons-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { getSignOutReason, setLogin, useAuth } from '../../api/auth-store.ts';
import { notify } from '../../lib/notifications-store.ts';
import { loginErrorMessage } from './login-errors.ts';
import { validateLogin, type LoginValues } from './login-form-state.ts';
import type { LoginMfaChallenge, LoginSession } from '@mailroom/contract/auth';
import { LoginMfaStep } from './login-mfa-step.tsx';
import { LostDeviceForm } from './lost-device-form.tsx';
import { useLogin } from './use-login.ts';

export default function LoginPage() {
  const { signedIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const returnTo = returnPath(location.state);
  const login = useLogin();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [touched, setTouched] = useState({ email: false, password: false });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<LoginMfaChallenge | null>(null);
  const [lost, setLost] = useState(false);
  const [target, setTarget] = useState(returnTo);

  const { errors, data } = validateLogin(values);
  const signOutReason = getSignOutReason();
  if (signedIn) return <Navigate to={target} replace />;

  const set = (field: keyof LoginValues) => (e: ChangeEvent<HTMLInputElement>) => {
    const v = e.currentTarget.value;
    setValues((old) => ({ ...old, [field]: v }));
  };
  const touch = (field: keyof LoginValues) => () => setTouched((t) => ({ ...t, [field]: true }));

  function finishSignIn(res: LoginSession) {
    // An account that must enrol a second factor goes straight to it.
    // A mailbox user's console is only its account page.
    const to = res.enrol_required ? '/account?enrol=1' : res.kind === 'mailbox' ? '/account' : returnTo;
    setTarget(to);
    setLogin(res.api_key, res.email, res.kind);
    notify({ type: 'success', title: 'Signed in', message: `Signed in as ${res.email}` });
    void navigate(to, { replace: true });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!data) {
      setTouched({ email: true, password: true });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const res = await login(data);
      if ('mfa_required' in res) {
        setChallenge(res);
        setValues((v) => ({ ...v, password: '' }));
        setBusy(false);
        return;
      }
      if (!res.success) {
        setFailure(loginMessages.invalidCredentials);
        setBusy(false);
        return;
      }
      finishSignIn(res);
    } catch (err) {
      setFailure(loginErrorMessage(err));
      setBusy(false);
    }
  }

  return (
    <Center component="main" mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Box w="100%" maw={420}>
        <Stack align="center" gap={4} mb="lg">
          <IconMail size={40} stroke={1.5} aria-hidden color="var(--mantine-primary-color-filled)" />
          <Title order={1} size="h2" ta="center">
            Management Dashboard
          </Title>
          <Text c="dimmed" size="sm">
            Sign in to your account
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          {lost ? (
            <LostDeviceForm
              email={challenge?.email ?? values.email}
              onBack={() => {
                setLost(false);
                setChallenge(null);
              }}
            />
          ) : challenge ? (
            <LoginMfaStep
              challenge={challenge}
              onDone={finishSignIn}
              onCancel={() => setChallenge(null)}
              onLostDevice={() => setLost(true)}
            />
          ) : (
            <form
              onSubmit={(e) => void submit(e)}
              // With Sign in disabled the browser will not submit on Enter; that is still an
              // invalid submit attempt, so show every field's problem (spec §5).
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !data) setTouched({ email: true, password: true });
              }}
              noValidate
              aria-label="Sign in"
            >
              <Stack>
                {!failure && signOutReason && (
                  <Alert color="yellow" variant="light" title="Signed out" role="status">
                    {signOutReason}
                  </Alert>
                )}
                {failure && (
                  <Alert
                    color="red"
                    variant="light"
                    title="Login Failed"
                    icon={<IconAlertCircle aria-hidden />}
                    role="alert"
                  >
                    {failure}
                  </Alert>
                )}
                <TextInput
                  label="Email address"
                  type="email"
                  name="email"
                  autoComplete="username"
                  placeholder="admin@example.com"
                  required
                  withAsterisk={false}
                  value={values.email}
                  onChange={set('email')}
                  onBlur={touch('email')}
                  error={touched.email ? errors.email : undefined}
                  disabled={busy}
                />
                <PasswordInput
                  label="Password"
                  name="password"
                  autoComplete="current-password"
                  required
                  withAsterisk={false}
                  value={values.password}
                  onChange={set('password')}
                  onBlur={touch('password')}
                  error={touched.password ? errors.password : undefined}
                  disabled={busy}
                />
                <Button type="submit" fullWidth disabled={!data || busy} mt="xs">
                  {busy ? 'Signing in...' : 'Sign in'}
                </Button>
                <Anchor component="button" type="button" size="sm" ta="center" onClick={() => setLost(true)}>
                  Lost my device
                </Anchor>
              </Stack>
            </form>
          )}
        </Paper>
      </Box>
    </Center>
  );
}

/** Where to go after signing in: the console page the user was sent away from, else the dashboard. */
function returnPath(state: unknown): string {
  if (state && typeof state === 'object' && 'from' in state) {
    const from = state.from;
    // Only a path of this console (never another origin, never /login itself).
    if (
      typeof from === 'string' &&
      from.startsWith('/') &&
      !from.startsWith('//') &&
      !from.startsWith('/login')
    ) {
      return from;
    }
  }
  return '/dashboard';
}

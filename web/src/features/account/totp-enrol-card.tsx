import { TotpConfirmRequest, type TotpStart, TotpStartRequest } from '@mailroom/contract/mfa';
import { Button, Card, Code, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useConfirmTotp } from './use-confirm-totp.ts';
import { useStartTotp } from './use-start-totp.ts';

/** The contract names the field deviceName; the card's input is `name`. */
const renamed = ({ deviceName, ...rest }: Record<string, string>): Record<string, string> =>
  deviceName === undefined ? rest : { ...rest, name: deviceName };

/** Authenticator app: name it, scan the QR code (or type the secret), confirm with the first code. */
export function TotpEnrolCard({ disabled, onDone }: { disabled: boolean; onDone: () => void }) {
  const startTotp = useStartTotp();
  const confirmTotp = useConfirmTotp();
  const [started, setStarted] = useState<TotpStart | null>(null);
  const [busy, setBusy] = useState(false);
  // One form, two steps: the device name, then the first code; each step checks its own field.
  const form = useForm({
    initialValues: { name: 'Authenticator app', code: '' },
    validate: (v) =>
      started
        ? zodValidate(TotpConfirmRequest)({ code: v.code.trim() })
        : renamed(zodValidate(TotpStartRequest)({ deviceName: v.name.trim() })),
  });
  const { name, code } = form.values;

  async function start() {
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      setStarted(await startTotp.mutateAsync(name.trim()));
    } catch (err) {
      form.setFieldError(
        'name',
        err instanceof ApiError ? (err.fieldErrors.deviceName ?? err.message) : 'Failed',
      );
    } finally {
      setBusy(false);
    }
  }

  const confirm = form.onSubmit(async (v) => {
    if (!started) return;
    setBusy(true);
    try {
      await confirmTotp.mutateAsync({ id: started.deviceId, code: v.code.trim() });
      notify({
        type: 'success',
        title: 'Authenticator added',
        message: `${v.name.trim()} is now a second factor.`,
      });
      setStarted(null);
      form.setFieldValue('code', '');
      onDone();
    } catch (err) {
      form.setFieldError('code', err instanceof ApiError ? (err.fieldErrors.code ?? err.message) : 'Failed');
    } finally {
      setBusy(false);
    }
  });

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="totp-title">
      <Title order={2} size="h4" id="totp-title" mb="xs">
        Authenticator app (TOTP)
      </Title>
      {!started ? (
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Device Name"
            {...form.getInputProps('name')}
            maxLength={64}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button onClick={() => void start()} disabled={disabled || busy || !name.trim()}>
            Add authenticator app
          </Button>
        </Group>
      ) : (
        <form onSubmit={confirm} aria-label="Confirm the authenticator app">
          <Stack>
            <Text size="sm">
              Scan the QR code with your authenticator app, or enter the secret by hand. Then type the 6-digit
              code it shows.
            </Text>
            <Group align="flex-start" wrap="wrap">
              <Image
                src={`data:image/svg+xml;base64,${btoa(started.qrSvg)}`}
                alt="QR code for the authenticator app"
                w={180}
                h={180}
                bg="white"
                radius="sm"
              />
              <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Text size="sm" fw={600}>
                  Secret
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Code data-testid="totp-secret" style={{ overflowWrap: 'anywhere' }}>
                    {started.secret}
                  </Code>
                  <CopyButton value={started.secret} label="Copy secret" />
                </Group>
                <Text size="xs" c="dimmed">
                  SHA-1, 6 digits, 30 seconds
                </Text>
              </Stack>
            </Group>
            <Group align="flex-end" wrap="wrap">
              <TextInput
                label="Verification code"
                inputMode="numeric"
                autoComplete="one-time-code"
                {...form.getInputProps('code')}
                style={{ flex: 1, minWidth: 160 }}
              />
              <Button type="submit" disabled={busy || code.trim().length !== 6}>
                Confirm
              </Button>
              <Button variant="default" onClick={() => setStarted(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}

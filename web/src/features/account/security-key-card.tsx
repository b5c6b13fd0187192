import { WebauthnRegisterStartRequest } from '@mailroom/contract/mfa';
import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useRegisterSecurityKey } from './use-register-security-key.ts';
import { useSecurityKeyOptions } from './use-security-key-options.ts';

/** Passkeys and security keys (WebAuthn): the browser talks to the key, the server checks it. */
export function SecurityKeyCard({ disabled, onDone }: { disabled: boolean; onDone: () => void }) {
  const keyOptions = useSecurityKeyOptions();
  const registerKey = useRegisterSecurityKey();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { deviceName: 'Security key' },
    transformValues: (v) => ({ deviceName: v.deviceName.trim() }),
    validate: zodValidate(WebauthnRegisterStartRequest, (v: { deviceName: string }) => ({
      deviceName: v.deviceName.trim(),
    })),
  });
  const name = form.values.deviceName;

  async function register() {
    if (form.validate().hasErrors) return;
    setBusy(true);
    try {
      const { deviceName } = form.getTransformedValues();
      const options = await keyOptions.mutateAsync(deviceName);
      const { startRegistration } = await import('@simplewebauthn/browser');
      const credential = await startRegistration({ optionsJSON: options as never });
      await registerKey.mutateAsync({
        deviceName,
        credential: credential as unknown as Record<string, unknown>,
      });
      notify({
        type: 'success',
        title: 'Security key added',
        message: `${deviceName} is now a second factor.`,
      });
      onDone();
    } catch (err) {
      form.setFieldError(
        'deviceName',
        err instanceof ApiError
          ? (err.fieldErrors.credential ?? err.message)
          : err instanceof Error && err.name === 'NotAllowedError'
            ? 'The security key was not used.'
            : 'The security key could not be registered.',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="key-title">
      <Title order={2} size="h4" id="key-title" mb="xs">
        Passkey or security key
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Listed as a Hardware Token.
      </Text>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Key Name"
          {...form.getInputProps('deviceName')}
          maxLength={64}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button onClick={() => void register()} disabled={disabled || busy || !name.trim()}>
          Add security key
        </Button>
      </Group>
    </Card>
  );
}

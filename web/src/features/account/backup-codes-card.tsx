import type { AccountMfa } from '@mailroom/contract/mfa';
import { Alert, Button, Card, Code, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useGenerateBackupCodes } from '../../api/use-generate-backup-codes.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { confirmAction } from '../../components/confirm-action.ts';

/** Backup codes: counts, and a new set shown once (the previous set stops working). */
export function BackupCodesCard({
  mfa,
  disabled,
  onDone,
}: {
  mfa: AccountMfa;
  disabled: boolean;
  onDone: () => void;
}) {
  const generateCodes = useGenerateBackupCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const c = mfa.backupCodes;

  async function generate() {
    if (
      c.available > 0 &&
      !(await confirmAction({
        title: 'Generate new backup codes',
        message: 'Your current backup codes will stop working.',
        confirmLabel: 'Generate',
      }))
    )
      return;
    setError(null);
    try {
      setCodes((await generateCodes.mutateAsync()).codes);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="codes-title">
      <Title order={2} size="h4" id="codes-title" mb="xs">
        Backup codes
      </Title>
      <Text size="sm" mb="sm">
        {c.available} available · {c.used} used · {c.expired} expired
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {error}
        </Alert>
      )}
      {codes && (
        <Alert color="blue" variant="light" title="Save these codes now" mb="sm" role="status">
          <Text size="sm" mb="xs">
            Each code works once. They are not shown again.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing={4} data-testid="backup-codes">
            {codes.map((x) => (
              <Code key={x}>{x}</Code>
            ))}
          </SimpleGrid>
          <Group mt="xs">
            <CopyButton value={codes.join('\n')} label="Copy codes" />
          </Group>
        </Alert>
      )}
      <Button
        variant="light"
        onClick={() => void generate()}
        disabled={disabled || !mfa.backupCodesEnabled || mfa.devices.length === 0}
      >
        Generate Backup Codes
      </Button>
      {!mfa.backupCodesEnabled && (
        <Text size="xs" c="dimmed" mt="xs">
          The MFA policy does not allow backup codes.
        </Text>
      )}
    </Card>
  );
}

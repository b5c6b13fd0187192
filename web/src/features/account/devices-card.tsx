import type { MfaDevice } from '@mailroom/contract/mfa';
import { Badge, Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { notify } from '../../lib/notifications-store.ts';
import { formatWhen } from './format-when.ts';
import { sessionsEnded } from './ended-sessions.ts';
import { useRemoveDevice } from './use-remove-device.ts';
import { useSetPrimaryDevice } from './use-set-primary-device.ts';

export function DevicesCard({
  devices,
  canChange,
  onDone,
}: {
  devices: MfaDevice[];
  canChange: boolean;
  onDone: () => void;
}) {
  const removeDevice = useRemoveDevice();
  const setPrimary = useSetPrimaryDevice();
  async function remove(d: MfaDevice) {
    const ok = await confirmAction({
      title: 'Remove device',
      message: `Remove ${d.deviceName}? Every session of your account ends and you sign in again.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      await removeDevice.mutateAsync(d.id);
      sessionsEnded(`${d.deviceName} removed. Sign in again.`);
    } catch (err) {
      notify({ type: 'error', title: 'Remove failed', message: errorMessage(err) });
    }
  }
  async function primary(d: MfaDevice) {
    try {
      await setPrimary.mutateAsync(d.id);
      onDone();
    } catch (err) {
      notify({ type: 'error', title: 'Change failed', message: errorMessage(err) });
    }
  }
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="devices-title">
      <Title order={2} size="h4" id="devices-title" mb="xs">
        Your second factors
      </Title>
      {devices.length === 0 ? (
        <Text size="sm" c="dimmed">
          No second factor yet. Add an authenticator app or a security key below.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last Used</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {devices.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    <Group gap={6}>
                      {d.deviceName}
                      {d.isPrimary && (
                        <Badge size="sm" variant="light">
                          Primary
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{d.deviceType}</Table.Td>
                  <Table.Td>{formatWhen(d.createdAt)}</Table.Td>
                  <Table.Td>{formatWhen(d.lastUsed)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {!d.isPrimary && (
                        <Button size="xs" variant="default" onClick={() => void primary(d)}>
                          Make primary
                        </Button>
                      )}
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        disabled={!canChange}
                        onClick={() => void remove(d)}
                        aria-label={`Remove ${d.deviceName}`}
                      >
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

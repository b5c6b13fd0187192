import type { MfaDevice } from '@mailroom/contract/mfa';
import { Badge, Button, Card, Group, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { formatWhen } from './format-when.ts';
import { sessionsEnded } from './ended-sessions.ts';
import { useRemoveDevice } from './use-remove-device.ts';
import { useSetPrimaryDevice } from './use-set-primary-device.ts';

const rowId = (d: MfaDevice) => String(d.id);

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
  const columns: ColumnDef<MfaDevice, unknown>[] = [
    {
      id: 'deviceName',
      header: 'Device',
      meta: { title: true },
      cell: ({ row: { original: d } }) => (
        <Group gap={6}>
          {d.deviceName}
          {d.isPrimary && (
            <Badge size="sm" variant="light">
              Primary
            </Badge>
          )}
        </Group>
      ),
    },
    { id: 'deviceType', header: 'Type', cell: ({ row }) => row.original.deviceType },
    { id: 'createdAt', header: 'Added', cell: ({ row }) => formatWhen(row.original.createdAt) },
    { id: 'lastUsed', header: 'Last Used', cell: ({ row }) => formatWhen(row.original.lastUsed) },
    {
      id: 'actions',
      header: 'Actions',
      meta: { actions: true },
      cell: ({ row: { original: d } }) => (
        <Group gap={4} wrap="nowrap">
          {!d.isPrimary && (
            <Button size="xs" variant="default" onClick={() => void primary(d)}>
              Make primary
            </Button>
          )}
          <Button
            size="xs"
            color="red"
            variant="outline"
            disabled={!canChange}
            onClick={() => void remove(d)}
            aria-label={`Remove ${d.deviceName}`}
          >
            Remove
          </Button>
        </Group>
      ),
    },
  ];
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
        <DataTable
          label="Your second factors"
          data={devices}
          columns={columns}
          getRowId={rowId}
          emptyText=""
          minWidth={520}
        />
      )}
    </Card>
  );
}

import { type ApiKeyView, STATS_WINDOW_LABELS, type StatsWindow } from '@mailroom/contract/api-monitoring';
import { Badge, Button, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { when, KeyFigures, KeyErrors, KeyTimes, KeyBuckets } from './api-key-cells.tsx';
import { CreateKeyModal } from './create-key-modal.tsx';
import { MetricsAccessForm } from './metrics-access-form.tsx';
import { useApiKeys } from './use-api-keys.ts';
import { useMetricsAccess } from './use-metrics-access.ts';
import { useRevokeApiKey } from './use-revoke-api-key.ts';

/** API keys for automation: created here (shown once), scoped, revocable, with their figures. */
export function ApiKeysPanel({ window }: { window: StatsWindow }) {
  const keys = useApiKeys(window);
  const limits = keys.data?.rateLimit;
  const metrics = useMetricsAccess();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);

  const columns = useMemo<ColumnDef<ApiKeyView, unknown>[]>(() => {
    const onRevoke = async (k: ApiKeyView) => {
      const ok = await confirmAction({
        title: 'Revoke API key',
        message: `Revoke "${k.name}"? Scripts using it are refused at once.`,
        confirmLabel: 'Revoke',
        danger: true,
      });
      if (!ok) return;
      try {
        await revoke.mutateAsync(k.id);
        notify({ type: 'success', title: 'API key revoked', message: k.name });
      } catch (err) {
        notify({ type: 'error', title: 'Failed to revoke the API key', message: errorMessage(err) });
      }
    };
    return [
      {
        id: 'name',
        header: 'Name',
        meta: { title: true },
        cell: ({ row: { original: k } }) => (
          <div>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {k.name}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {k.prefix}…
            </Text>
          </div>
        ),
      },
      {
        id: 'scope',
        header: 'Scope',
        cell: ({ row: { original: k } }) => (
          <Text size="sm">
            {k.access === 'read' ? 'Read-only' : 'Read-write'} · {k.areas.join(', ')}
            {k.domains.length ? ` · ${k.domains.join(', ')}` : ''}
            {k.allowedAddresses.length ? ` · from ${k.allowedAddresses.join(', ')}` : ''}
          </Text>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: k } }) => (
          <StatusBadge
            status={k.status === 'active' ? 'active' : k.status === 'expired' ? 'warning' : 'disabled'}
            label={k.status}
          />
        ),
      },
      {
        id: 'requests',
        header: `Requests (${STATS_WINDOW_LABELS[window].toLowerCase()})`,
        meta: { align: 'right' },
        cell: ({ row: { original: k } }) => <KeyFigures k={k} />,
      },
      {
        id: 'errors',
        header: 'Errors (5xx / 4xx / 429)',
        meta: { align: 'right' },
        cell: ({ row: { original: k } }) => <KeyErrors k={k} />,
      },
      {
        id: 'times',
        header: 'p50 / p95 / p99',
        meta: { align: 'right' },
        cell: ({ row: { original: k } }) => <KeyTimes k={k} />,
      },
      {
        id: 'limits',
        header: 'Rate limit (minute · hour)',
        meta: { align: 'right' },
        cell: ({ row: { original: k } }) =>
          limits ? <KeyBuckets k={k} limits={limits} /> : `${k.currentMinute} · ${k.currentHour}`,
      },
      {
        id: 'last',
        header: 'Last used',
        cell: ({ row: { original: k } }) => (
          <div>
            <Text size="sm">{when(k.lastUsedAt)}</Text>
            {k.lastIp && (
              <Text size="xs" c="dimmed" ff="monospace">
                {k.lastIp}
              </Text>
            )}
          </div>
        ),
      },
      { id: 'expires', header: 'Expires', cell: ({ row }) => when(row.original.expiresAt) },
      {
        id: 'actions',
        header: '',
        meta: { actions: true, label: 'Actions', align: 'right' },
        cell: ({ row: { original: k } }) =>
          k.status === 'revoked' ? null : (
            <Button
              size="xs"
              variant="outline"
              color="red"
              onClick={() => void onRevoke(k)}
              aria-label={`Revoke ${k.name}`}
            >
              Revoke
            </Button>
          ),
      },
    ];
  }, [revoke, window, limits]);

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="api-keys-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="api-keys-title">
          API Keys
        </Title>
        <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setCreating(true)}>
          Create API Key
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        For scripts and monitoring instead of an administrator's session. Every call is audited under the
        key's name; the rate limits apply to each key like to each administrator. Figures cover the period
        chosen above, summed over every server process.
      </Text>
      <LoadState
        loading={keys.isPending}
        error={keys.error ? errorMessage(keys.error) : null}
        errorTitle="Failed to load the API keys"
        onRetry={() => void keys.refetch()}
      >
        <DataTable
          label="API keys"
          data={keys.data?.keys ?? []}
          columns={columns}
          getRowId={(k) => String(k.id)}
          emptyText="No API keys yet"
          minWidth={1180}
        />
      </LoadState>
      <SimpleGrid cols={{ base: 1, md: 2 }} mt="md">
        <div>
          <Group gap="xs" mb="xs">
            <Text fw={600}>/metrics for Prometheus</Text>
            {metrics.data && (
              <Badge variant="dot" color={metrics.data.protected ? 'green' : 'yellow'}>
                {metrics.data.protected ? 'Protected' : 'Open'}
              </Badge>
            )}
          </Group>
          {metrics.data && <MetricsAccessForm key={JSON.stringify(metrics.data)} state={metrics.data} />}
        </div>
      </SimpleGrid>
      <CreateKeyModal opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

import {
  API_KEY_AREA_LABELS,
  API_KEY_AREAS,
  API_KEY_EXPIRY_DAYS,
  type ApiKeyList,
  type ApiKeyView,
  CreateApiKey,
  type MetricsAccess,
  STATS_WINDOW_LABELS,
  type StatsWindow,
} from '@mailroom/contract/api-monitoring';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconKey, IconPlus } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { formatMs } from './health.ts';
import { useApiKeys } from './use-api-keys.ts';
import { useCreateApiKey } from './use-create-api-key.ts';
import { useMetricsAccess } from './use-metrics-access.ts';
import { useRevokeApiKey } from './use-revoke-api-key.ts';
import { useSaveMetricsAccess } from './use-save-metrics-access.ts';

interface Values {
  name: string;
  access: 'read' | 'read-write';
  areas: string[];
  domains: string[];
  expiresInDays: string;
  allowedAddresses: string[];
}

const toInput = (v: Values) => ({
  ...v,
  name: v.name.trim(),
  expiresInDays: Number(v.expiresInDays),
});

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** The key's figures over the window; "—" for what a key without requests cannot have. */
function KeyFigures({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <div data-testid={`key-requests-${k.name}`}>
      <Text size="sm">{f.requestCount.toLocaleString()}</Text>
      <Text size="xs" c="dimmed">
        {k.requests.toLocaleString()} since created
      </Text>
    </div>
  );
}

function KeyErrors({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <Text size="sm" data-testid={`key-errors-${k.name}`}>
      {f.requestCount ? `${f.errorCount} / ${f.clientErrorCount} / ${f.rateLimitedCount}` : '—'}
    </Text>
  );
}

function KeyTimes({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <Text size="sm" data-testid={`key-times-${k.name}`}>
      {f.requestCount ? `${formatMs(f.p50)} / ${formatMs(f.p95)} / ${formatMs(f.p99)}` : '—'}
    </Text>
  );
}

function KeyBuckets({ k, limits }: { k: ApiKeyView; limits: ApiKeyList['rateLimit'] }) {
  return (
    <div data-testid={`key-buckets-${k.name}`}>
      <Text size="sm">
        {limits.enabled
          ? `${k.currentMinute} / ${limits.requestsPerMinute} · ${k.currentHour} / ${limits.requestsPerHour}`
          : `${k.currentMinute} · ${k.currentHour}`}
      </Text>
      {k.rateLimited ? (
        <Badge size="xs" color="red" variant="light">
          Limited
        </Badge>
      ) : (
        !limits.enabled && (
          <Text size="xs" c="dimmed">
            limit off
          </Text>
        )
      )}
    </div>
  );
}

function CreateKeyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [token, setToken] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: {
      name: '',
      access: 'read',
      areas: ['mail'],
      domains: [],
      expiresInDays: '90',
      allowedAddresses: [],
    },
    validate: zodValidate<Values>(CreateApiKey, toInput),
  });
  const close = () => {
    setToken(null);
    form.reset();
    onClose();
  };
  const submit = async (values: Values) => {
    try {
      const made = await create.mutateAsync(CreateApiKey.parse(toInput(values)));
      setToken(made.token);
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to create the API key', message: errorMessage(err) });
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={token ? 'API key created' : 'Create API Key'} size="lg">
      {token ? (
        <Stack>
          <Alert color="yellow" title="Copy the key now">
            It is shown only this once: the server keeps only its hash.
          </Alert>
          <Group wrap="nowrap" gap="xs">
            <Code block style={{ flex: 1, overflowWrap: 'anywhere' }} data-testid="new-api-key">
              {token}
            </Code>
            <CopyButton value={token} label="Copy the API key" />
          </Group>
          <Text size="sm">
            Send it as <Code>Authorization: Bearer &lt;key&gt;</Code>.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <TextInput label="Name" required {...form.getInputProps('name')} />
            <Select
              label="Access"
              allowDeselect={false}
              data={[
                { value: 'read', label: 'Read-only' },
                { value: 'read-write', label: 'Read-write' },
              ]}
              {...form.getInputProps('access')}
            />
            <Checkbox.Group label="Areas" {...form.getInputProps('areas')}>
              <Group mt={6}>
                {API_KEY_AREAS.map((a) => (
                  <Checkbox key={a} value={a} label={API_KEY_AREA_LABELS[a]} />
                ))}
              </Group>
            </Checkbox.Group>
            <TagsInput
              label="Domains"
              description="Leave empty for every domain; with domains the key acts like a domain administrator of them."
              {...form.getInputProps('domains')}
            />
            <Select
              label="Expires in"
              allowDeselect={false}
              data={API_KEY_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
              {...form.getInputProps('expiresInDays')}
            />
            <TagsInput
              label="Allowed addresses"
              description="Addresses or ranges (10.0.0.0/8) the key may be used from; empty: any."
              {...form.getInputProps('allowedAddresses')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                leftSection={<IconKey size={16} aria-hidden />}
              >
                Create Key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function MetricsAccessForm({ state }: { state: MetricsAccess }) {
  const save = useSaveMetricsAccess();
  const form = useForm<MetricsAccess>({ initialValues: state });
  const submit = async (values: MetricsAccess) => {
    try {
      const next = await save.mutateAsync(values);
      form.setInitialValues(next);
      form.reset();
      notify({
        type: 'success',
        title: '/metrics access saved',
        message: 'Every server process applies it within 5 seconds.',
      });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to save /metrics access', message: errorMessage(err) });
    }
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <Switch
          label="Protect /metrics (a key with the Metrics area, or an allowed address)"
          {...form.getInputProps('protected', { type: 'checkbox' })}
        />
        <TagsInput label="Addresses allowed without a key" {...form.getInputProps('allowedAddresses')} />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending}
            disabled={!form.isDirty()}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          >
            Save /metrics Access
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

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

import {
  BULK_ACTION_CATEGORIES,
  type BulkCategory,
  type BulkOperation,
  type BulkRun,
  bulkMessages,
} from '@mailroom/contract/bulk';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlayerStop, IconRefresh, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { bulkKeys } from './bulk-keys.ts';
import { ConfigureModal } from './components/configure-modal.tsx';
import { PlanFormModal, type PlanSeed } from './components/plan-form-modal.tsx';
import { PlanPanel } from './components/plan-panel.tsx';
import { RunDetailsModal } from './components/run-details-modal.tsx';
import { RUN_TONES, formatDuration, formatEta } from './components/run-format.ts';
import { useBulkOperations } from './use-bulk-operations.ts';
import { useBulkProgressEvents } from './use-bulk-progress-events.ts';
import { useBulkRun } from './use-bulk-run.ts';
import { useBulkRuns } from './use-bulk-runs.ts';
import { useCancelBulkRun } from './use-cancel-bulk-run.ts';
import { useClearBulkHistory } from './use-clear-bulk-history.ts';
import { useSaveBulkPreference } from './use-save-bulk-preference.ts';

/** What a list screen passes with "Run a bulk operation on the selection" (router state). */
interface BulkSeedState {
  bulk?: PlanSeed;
}

function ActiveOperation({ run, onDetails }: { run: BulkRun; onDetails: () => void }) {
  const cancel = useCancelBulkRun();
  const done = run.counts.total - run.counts.pending;
  return (
    <Card withBorder padding="sm" radius="md">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs">
            <Text fw={600}>{run.name}</Text>
            <StatusBadge status={RUN_TONES[run.state] ?? run.state} label={run.state} />
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="subtle" onClick={onDetails}>
              Details
            </Button>
            {run.state === 'running' && (
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={14} aria-hidden />}
                disabled={run.cancelRequested}
                loading={cancel.isPending}
                onClick={() =>
                  cancel.mutate(run.id, {
                    onError: (e) =>
                      notify({ type: 'error', title: 'Cancel failed', message: errorMessage(e) }),
                  })
                }
              >
                {run.cancelRequested ? 'Cancelling…' : 'Cancel'}
              </Button>
            )}
          </Group>
        </Group>
        <Progress
          value={run.progress}
          animated={run.state === 'running'}
          aria-label={`${run.name} progress`}
          color={run.state === 'failed' ? 'red' : run.state === 'cancelled' ? 'yellow' : undefined}
        />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">
            {done.toLocaleString()} of {run.counts.total.toLocaleString()} ({run.progress}%) ·{' '}
            {run.counts.succeeded} ok · {run.counts.failed} failed
            {run.counts.notProcessed ? ` · ${run.counts.notProcessed} not processed` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            ETA {run.state === 'running' ? formatEta(run.estimatedTimeRemaining) : '—'}
          </Text>
        </Group>
        {run.currentItemName && (
          <Text size="xs" c="dimmed" truncate>
            Now: {run.currentItemName}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function OperationCard({ op, onConfigure }: { op: BulkOperation; onConfigure: () => void }) {
  const save = useSaveBulkPreference();
  // Shown at once; the saved value follows from the server (and comes back if the save fails).
  const [checked, setChecked] = useState(op.enabled);
  useEffect(() => setChecked(op.enabled), [op.enabled]);
  return (
    <Card withBorder padding="sm" radius="md" aria-label={op.name}>
      <Stack gap={6} h="100%">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600}>{op.name}</Text>
          <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
            {op.category.toUpperCase()}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {op.description}
        </Text>
        {op.unavailable && (
          <Text size="xs" fw={500}>
            {op.unavailable}
          </Text>
        )}
        <Group justify="space-between" gap="xs" mt="auto">
          <Checkbox
            label="Enabled"
            checked={op.enabled}
            disabled={!!op.unavailable || save.isPending}
            onChange={(e) =>
              save.mutate(
                { id: op.id, body: { enabled: e.currentTarget.checked } },
                {
                  onError: (err) =>
                    notify({ type: 'error', title: 'Could not save', message: errorMessage(err) }),
                },
              )
            }
          />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconSettings size={14} aria-hidden />}
            disabled={!checked}
            onClick={onConfigure}
          >
            Configure
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export default function BulkOperationsPage() {
  const qc = useQueryClient();
  const ops = useBulkOperations();
  const live = useBulkProgressEvents();
  const runs = useBulkRuns(live);
  const clear = useClearBulkHistory();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const planId = Number(params.get('plan')) || null;
  const plan = useBulkRun(planId, live);
  const [configuring, setConfiguring] = useState<BulkOperation | null>(null);
  const [planning, setPlanning] = useState<{ ops: BulkOperation[]; seed?: PlanSeed } | null>(null);
  const [details, setDetails] = useState<number | null>(null);

  // Arriving from a list's "Run a bulk operation on the selection": open the plan form with it.
  const seed = (location.state as BulkSeedState | null)?.bulk;
  useEffect(() => {
    if (!seed || !ops.data) return;
    const op = ops.data.find((o) => o.id === seed.operation && !o.unavailable);
    if (op) setPlanning({ ops: [op], seed });
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [seed, ops.data, navigate, location.pathname, location.search]);

  const loading = ops.isPending || runs.isPending;
  const error = ops.error ?? runs.error;
  const fetching = ops.isFetching || runs.isFetching;
  const enabledBy = (c: BulkCategory) =>
    (ops.data ?? []).filter((o) => o.category === c && o.enabled && !o.unavailable);
  const showPlan = (id: number | null) =>
    setParams(
      (p) => {
        if (id === null) p.delete('plan');
        else p.set('plan', String(id));
        return p;
      },
      { replace: false },
    );

  const historyColumns = useMemo<ColumnDef<BulkRun, unknown>[]>(
    () => [
      { id: 'name', header: 'Operation', accessorFn: (r) => r.name, meta: { title: true } },
      {
        id: 'state',
        header: 'Status',
        cell: ({ row }) => (
          <StatusBadge
            status={RUN_TONES[row.original.state] ?? row.original.state}
            label={row.original.state}
          />
        ),
        meta: { label: 'Status' },
      },
      {
        id: 'items',
        header: 'Ok / failed / not processed',
        accessorFn: (r) => `${r.counts.succeeded} / ${r.counts.failed} / ${r.counts.notProcessed}`,
      },
      { id: 'total', header: 'Items', accessorFn: (r) => r.counts.total, meta: { align: 'right' } },
      {
        id: 'when',
        header: 'Started',
        accessorFn: (r) => (r.startedAt ? new Date(r.startedAt).toLocaleString() : '—'),
      },
      { id: 'duration', header: 'Duration', accessorFn: (r) => formatDuration(r.duration) },
      {
        id: 'actions',
        header: '',
        cell: ({ row }) => (
          <Button size="xs" variant="subtle" onClick={() => setDetails(row.original.id)}>
            Details
          </Button>
        ),
        meta: { actions: true, align: 'right', label: 'Actions' },
      },
    ],
    [],
  );

  return (
    <>
      <PageHeader
        title="Bulk Operations"
        breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'Bulk Operations' }]}
        subtitle="Plan first, then run: every item is checked, applied in batches and recorded"
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={fetching}
            disabled={fetching}
            onClick={() => void qc.invalidateQueries({ queryKey: bulkKeys.all })}
          >
            Refresh
          </Button>
        }
      />
      <LoadState
        loading={loading}
        error={error ? errorMessage(error) : null}
        errorTitle="Failed to load bulk operations"
        onRetry={() => void qc.invalidateQueries({ queryKey: bulkKeys.all })}
      >
        <Stack gap="lg">
          {plan.data && (
            <PlanPanel
              run={plan.data}
              onClose={() => showPlan(null)}
              onStarted={() => {
                showPlan(null);
                void qc.invalidateQueries({ queryKey: bulkKeys.runs() });
              }}
            />
          )}

          <section aria-labelledby="bulk-active">
            <Title order={2} size="h4" id="bulk-active" mb="xs">
              Active Operations
            </Title>
            {runs.data?.active.length ? (
              <Stack gap="xs">
                {runs.data.active.map((r) => (
                  <ActiveOperation key={r.id} run={r} onDetails={() => setDetails(r.id)} />
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                No operation is running.
              </Text>
            )}
          </section>

          <section aria-labelledby="bulk-available">
            <Title order={2} size="h4" id="bulk-available" mb="xs">
              Available Operations
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              {(ops.data ?? []).map((op) => (
                <OperationCard key={op.id} op={op} onConfigure={() => setConfiguring(op)} />
              ))}
            </SimpleGrid>
          </section>

          <section aria-labelledby="bulk-actions">
            <Title order={2} size="h4" id="bulk-actions" mb="xs">
              Bulk Actions
            </Title>
            <Group gap="xs" wrap="wrap">
              {BULK_ACTION_CATEGORIES.map(({ category, label }) => {
                const enabled = enabledBy(category);
                return (
                  <Button
                    key={category}
                    variant="light"
                    disabled={enabled.length === 0 || loading}
                    onClick={() => setPlanning({ ops: enabled })}
                    rightSection={
                      <Badge size="sm" variant="filled" color={enabled.length ? 'blue' : 'gray'}>
                        {enabled.length} enabled
                      </Badge>
                    }
                  >
                    {label}
                  </Button>
                );
              })}
            </Group>
          </section>

          <section aria-labelledby="bulk-history">
            <Group justify="space-between" mb="xs" gap="xs">
              <Title order={2} size="h4" id="bulk-history">
                Operation History
              </Title>
              <Button
                size="xs"
                variant="default"
                disabled={!runs.data?.history.length}
                loading={clear.isPending}
                onClick={() =>
                  void confirmAction({
                    title: 'Clear History',
                    message: 'Clear the operation history? The audit log keeps every run.',
                    confirmLabel: 'Clear History',
                  }).then((ok) => ok && clear.mutate())
                }
              >
                Clear History
              </Button>
            </Group>
            <DataTable
              label="Operation history"
              data={runs.data?.history ?? []}
              columns={historyColumns}
              getRowId={(r) => String(r.id)}
              emptyText={bulkMessages.empty}
              minWidth={720}
            />
          </section>
        </Stack>
      </LoadState>

      {configuring && <ConfigureModal op={configuring} onClose={() => setConfiguring(null)} />}
      {planning && (
        <PlanFormModal
          operations={planning.ops}
          seed={planning.seed}
          onClose={() => setPlanning(null)}
          onPlanned={(id) => {
            setPlanning(null);
            showPlan(id);
          }}
        />
      )}
      {details !== null && (
        <RunDetailsModal
          runId={details}
          onClose={() => setDetails(null)}
          onRetryPlanned={(id) => {
            setDetails(null);
            showPlan(id);
          }}
        />
      )}
    </>
  );
}

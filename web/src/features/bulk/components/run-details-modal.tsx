import type { BulkRun } from '@mailroom/contract/bulk';
import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../../api/client.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { useBulkRun } from '../use-bulk-run.ts';
import { useDownloadBulkResults } from '../use-download-bulk-results.ts';
import { useRetryBulkRun } from '../use-retry-bulk-run.ts';
import { ItemsTable } from './items-table.tsx';
import { PlanCountBadges } from './plan-panel.tsx';
import { RUN_TONES, formatDuration } from './run-format.ts';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}

/** Details of a run: its configuration, plan, summary (ok / failed / not processed) and per-item results. */
export function RunDetailsModal({
  runId,
  onClose,
  onRetryPlanned,
}: {
  runId: number;
  onClose: () => void;
  onRetryPlanned: (id: number) => void;
}) {
  const q = useBulkRun(runId);
  const download = useDownloadBulkResults();
  const retry = useRetryBulkRun();
  const run: BulkRun | undefined = q.data;
  return (
    <Modal opened onClose={onClose} title="Operation details" centered size="xl">
      {!run ? (
        <Text c="dimmed">{q.error ? errorMessage(q.error) : 'Loading…'}</Text>
      ) : (
        <Stack gap="sm">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{run.name}</Text>
            <StatusBadge status={RUN_TONES[run.state] ?? run.state} label={run.state} />
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            <Fact label="Succeeded" value={run.counts.succeeded.toLocaleString()} />
            <Fact label="Failed" value={run.counts.failed.toLocaleString()} />
            <Fact label="Not processed" value={run.counts.notProcessed.toLocaleString()} />
            <Fact label="Skipped" value={run.counts.skipped.toLocaleString()} />
            <Fact label="Target" value={run.target.description} />
            <Fact label="Batch size" value={String(run.config.batchSize)} />
            <Fact label="Continue on error" value={run.config.continueOnError ? 'On' : 'Off'} />
            <Fact label="Duration" value={formatDuration(run.duration)} />
            <Fact label="Started by" value={run.actor} />
            <Fact label="Batches" value={String(run.batches)} />
            <Fact label="Throughput" value={run.throughput === null ? '—' : `${run.throughput}/s`} />
            <Fact label="Started" value={run.startedAt ? new Date(run.startedAt).toLocaleString() : '—'} />
          </SimpleGrid>
          <PlanCountBadges run={run} />
          {run.cause && (
            <Alert color="red" variant="light" title="Why it stopped">
              {run.cause}
            </Alert>
          )}
          <Group gap="xs" wrap="wrap">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconDownload size={14} aria-hidden />}
              loading={download.isPending}
              onClick={() =>
                download.mutate(run.id, {
                  onError: (e) =>
                    notify({ type: 'error', title: 'Download failed', message: errorMessage(e) }),
                })
              }
            >
              Download results (CSV)
            </Button>
            {run.counts.failed > 0 && run.state !== 'running' && (
              <Button
                size="xs"
                variant="light"
                color="orange"
                leftSection={<IconRefresh size={14} aria-hidden />}
                loading={retry.isPending}
                onClick={() =>
                  retry.mutate(run.id, {
                    onSuccess: (a) => onRetryPlanned(a.run.id),
                    onError: (e) =>
                      notify({
                        type: 'error',
                        title: 'Retry failed could not be planned',
                        message: errorMessage(e),
                      }),
                  })
                }
              >
                Retry failed ({run.counts.failed})
              </Button>
            )}
          </Group>
          <ItemsTable runId={run.id} mode="results" live={run.state === 'running'} />
        </Stack>
      )}
    </Modal>
  );
}

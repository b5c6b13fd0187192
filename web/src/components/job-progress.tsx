import type { JobEvent } from '@mailroom/contract/jobs';
import { Button, Group, Progress, Stack, Text } from '@mantine/core';

export interface JobProgressProps {
  job: JobEvent;
  /** Shown while the job runs; asks the server to stop it. */
  onCancel?: () => void;
}

/** A running job: its phase, a progress bar (rows done of the total) and a Cancel button. */
export function JobProgress({ job, onCancel }: JobProgressProps) {
  const pct = job.total ? Math.min(100, Math.round((job.processed / job.total) * 100)) : null;
  const running = job.state === 'queued' || job.state === 'running';
  const label = `${job.title}: ${job.phase ?? (job.state === 'queued' ? 'Waiting to start' : job.state)}`;
  return (
    <Stack gap={6} data-testid="job-progress">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {job.total
            ? `${job.processed.toLocaleString()} / ${job.total.toLocaleString()} (${pct}%)`
            : job.processed.toLocaleString()}
        </Text>
      </Group>
      <Progress.Root size="lg">
        <Progress.Section
          value={pct ?? 100}
          animated={running && pct === null}
          striped={running}
          aria-label={label}
        />
      </Progress.Root>
      {running && onCancel && (
        <Group justify="flex-end">
          <Button size="xs" variant="default" onClick={onCancel} disabled={job.cancelRequested}>
            {job.cancelRequested ? 'Cancelling…' : 'Cancel'}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

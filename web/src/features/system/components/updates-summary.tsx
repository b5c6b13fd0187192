import type { JobEvent } from '@mailroom/contract/jobs';
import type { UpdatesAnswer } from '@mailroom/contract/system-admin';
import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { JobProgress } from '../../../components/job-progress.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { useInstallUpdates } from '../use-install-updates.ts';
import { ToneBadge } from './priority-badge.tsx';

const PRIORITIES = ['security', 'important', 'optional'] as const;

export interface UpdatesSummaryProps {
  query: UseQueryResult<UpdatesAnswer>;
  job: JobEvent | null;
  run: (start: () => Promise<{ jobId: number }>, what: string) => Promise<void>;
}

/**
 * Available Updates on /system (spec §2.8): how many per priority and Install All; the list itself
 * is on System Management's System Updates tab, one link away (issue 22: not repeated here).
 */
export function UpdatesSummary({ query, job, run }: UpdatesSummaryProps) {
  const installUpdates = useInstallUpdates();
  const pending = query.data?.updates.filter((u) => !u.installed) ?? [];
  const installAll = async () => {
    if (
      await confirmAction({
        title: 'Install all updates',
        message: `Install ${pending.length} update${pending.length === 1 ? '' : 's'} with apt now? Services may restart.`,
        confirmLabel: 'Install All',
      })
    )
      void run(() => installUpdates.mutateAsync([]), 'Install All');
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap" gap="sm">
        <Title order={2} size="h4">
          Available Updates
        </Title>
        <Button size="xs" disabled={job !== null || pending.length === 0} onClick={() => void installAll()}>
          Install All
        </Button>
      </Group>
      <LoadState
        loading={query.isPending}
        error={query.error ? errorMessage(query.error) : null}
        errorTitle="Failed to load updates"
        loadingLabel="Reading the package lists…"
        onRetry={() => void query.refetch()}
      >
        <Stack gap="xs">
          <Text size="sm" fw={600} data-testid="updates-summary">
            {pending.length === 0
              ? 'The system is up to date.'
              : `${pending.length} update${pending.length === 1 ? '' : 's'} available`}
          </Text>
          {pending.length > 0 && (
            <Group gap="md" wrap="wrap">
              {PRIORITIES.map((p) => (
                <ToneBadge
                  key={p}
                  value={p}
                  label={`${pending.filter((u) => u.priority === p).length} ${p}`}
                />
              ))}
            </Group>
          )}
          {job && <JobProgress job={job} />}
          <Anchor component={Link} to="/system/management" size="sm" underline="always">
            View the updates in System Management
          </Anchor>
        </Stack>
      </LoadState>
    </Card>
  );
}

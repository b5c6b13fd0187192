import type { JobEvent } from '@mailroom/contract/jobs';
import type { UpdatesAnswer } from '@mailroom/contract/system-admin';
import { Card } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../../../api/client.ts';
import { LoadState } from '../../../components/load-state.tsx';
import { UpdatesTable } from './updates-table.tsx';

export interface UpdatesSectionProps {
  query: UseQueryResult<UpdatesAnswer>;
  job: JobEvent | null;
  run: (start: () => Promise<{ jobId: number }>, what: string) => Promise<void>;
  manage?: boolean;
}

/** The updates table with its own loading state: apt takes a few seconds to read its lists. */
export function UpdatesSection({ query, job, run, manage }: UpdatesSectionProps) {
  if (query.data) return <UpdatesTable data={query.data} job={job} run={run} manage={manage ?? false} />;
  return (
    <Card withBorder radius="md" padding="md">
      <LoadState
        loading={query.isPending}
        error={query.error ? errorMessage(query.error) : null}
        errorTitle="Failed to load updates"
        loadingLabel="Reading the package lists…"
        onRetry={() => void query.refetch()}
      />
    </Card>
  );
}

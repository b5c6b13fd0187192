import type { JobEvent } from '@mailroom/contract/jobs';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { notify } from '../../lib/notifications-store.ts';
import { systemKeys } from './use-system-admin.ts';

/**
 * Starts a job through `start` and follows it over the events stream: its live phase (apt's
 * output, backup steps) shows in `job`; at the end a notification and fresh lists.
 */
export function useJobRunner() {
  const qc = useQueryClient();
  const [job, setJob] = useState<JobEvent | null>(null);
  const run = useCallback(
    async (start: () => Promise<{ jobId: number }>, what: string) => {
      try {
        const { jobId } = await start();
        const done = await followJob(jobId, setJob);
        if (done.state === 'succeeded')
          notify({ type: 'success', title: `${what} finished`, message: done.message ?? done.title });
        else notify({ type: 'error', title: `${what} ${done.state}`, message: done.message ?? done.title });
      } catch (err) {
        notify({ type: 'error', title: `${what} could not start`, message: errorMessage(err) });
      } finally {
        setJob(null);
        await qc.invalidateQueries({ queryKey: systemKeys.all });
      }
    },
    [qc],
  );
  return { job, run, busy: job !== null };
}

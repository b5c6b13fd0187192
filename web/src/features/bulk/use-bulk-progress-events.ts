import type { BulkRun, RunsAnswer } from '@mailroom/contract/bulk';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { subscribeServerEvents } from '../../api/job-events.ts';
import { bulkKeys } from './bulk-keys.ts';
import { BULK_JOB_KIND, runsWithJobProgress, withJobProgress } from './bulk-progress.ts';

/**
 * Follows bulk runs on the events stream (`/api/events`): each progress event of a run's job moves
 * its figures in the cache at once (no request), and a run's end (or the stream opening again after
 * a reload or a lost connection) reads the runs again. Answers whether the stream is open: the
 * page then polls only now and then, for the measured throughput, instead of every second.
 */
export function useBulkProgressEvents(): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(
    () =>
      subscribeServerEvents({
        ready: () => {
          setLive(true);
          void qc.invalidateQueries({ queryKey: bulkKeys.all });
        },
        job: (job) => {
          if (job.kind !== BULK_JOB_KIND) return;
          if (job.state !== 'running') {
            void qc.invalidateQueries({ queryKey: bulkKeys.all });
            return;
          }
          qc.setQueryData<RunsAnswer>(bulkKeys.runs(), (old) => old && runsWithJobProgress(old, job));
          for (const [key, run] of qc.getQueriesData<BulkRun>({ queryKey: bulkKeys.anyRun() }))
            if (key.length === 3 && run && run.jobId === job.id)
              qc.setQueryData<BulkRun>(key, withJobProgress(run, job));
        },
      }),
    [qc],
  );
  return live;
}

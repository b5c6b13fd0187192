import type { BulkRun, RunsAnswer } from '@mailroom/contract/bulk';
import type { JobEvent } from '@mailroom/contract/jobs';

/** The job kind of a bulk run (server/src/features/bulk/bulk-context.ts). */
export const BULK_JOB_KIND = 'bulk.run';

/**
 * A run's figures moved on by its job's progress event (the events stream), without asking the
 * server: the ledger counts the job reports, the progress they make, the item in hand (the job's
 * phase is "Batch N: <item>") and the time left at the last measured throughput. An event of
 * another job, or of a run that is not running, leaves the run as it was.
 */
export function withJobProgress(run: BulkRun, job: JobEvent): BulkRun {
  if (run.jobId !== job.id || run.state !== 'running' || job.state !== 'running') return run;
  const total = run.counts.total;
  const pending = Math.max(0, total - job.processed);
  const n = (name: keyof BulkRun['counts']) => job.counts[name] ?? run.counts[name];
  const item = job.phase?.replace(/^Batch \d+: /, '') ?? null;
  return {
    ...run,
    counts: {
      total,
      succeeded: n('succeeded'),
      failed: n('failed'),
      skipped: n('skipped'),
      notProcessed: n('notProcessed'),
      pending,
    },
    progress: total === 0 ? 100 : Math.round(((total - pending) / total) * 1000) / 10,
    estimatedTimeRemaining: run.throughput ? Math.round((pending / run.throughput) * 1000) : null,
    currentItemName: item ?? run.currentItemName,
  };
}

/** The active list with `job`'s run moved on. */
export function runsWithJobProgress(answer: RunsAnswer, job: JobEvent): RunsAnswer {
  if (!answer.active.some((r) => r.jobId === job.id)) return answer;
  return { ...answer, active: answer.active.map((r) => withJobProgress(r, job)) };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobChange, JobRunner } from './job-runner.service.ts';
import { recentJobs, toJobEvent } from './job.repository.ts';

/** The runner's changes and the jobs table, as the events hub reads them. */
export function jobFeed(db: Kysely<Database>, runner: JobRunner) {
  return {
    onChange(listener: (c: JobChange) => void) {
      runner.on('change', listener);
      return () => void runner.off('change', listener);
    },
    async recent(sinceMs: number): Promise<JobChange[]> {
      const rows = await recentJobs(db, sinceMs);
      return rows.map((r) => ({ job: toJobEvent(r), version: Number(r.version) }));
    },
  };
}

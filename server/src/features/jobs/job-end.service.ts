import type { JobState } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notify } from '../events/events.public.ts';
import { type JobRow, updateJob } from './job.repository.ts';
import { type LocalJob, RESUME_MESSAGE } from './job-runner.types.ts';

/** A running job's writes: its progress as it goes, and its end (or its return to the queue). */

type Db = Kysely<Database>;

/** Ends a job of this process: a resumable one interrupted goes back to the queue. */
export async function finishJob(
  db: Db,
  local: LocalJob,
  end: Partial<JobRow> & { state: JobState },
  changed: (row: JobRow) => void,
): Promise<void> {
  await local.writing;
  const now = Date.now();
  if (end.state === 'interrupted' && Number(local.row.resumable) === 1) {
    // This process stops: the job goes back to the queue, and the next process resumes it.
    local.row = {
      ...local.row,
      state: 'queued',
      phase: null,
      owner: null,
      heartbeat_at: null,
      message: RESUME_MESSAGE,
      updated_at: now,
      version: local.row.version + 1,
    };
    await updateJob(db, local.row.id, {
      state: 'queued',
      phase: null,
      owner: null,
      heartbeat_at: null,
      processed: local.row.processed,
      counts: local.row.counts,
      message: RESUME_MESSAGE,
      updated_at: now,
      version: local.row.version,
    });
    changed(local.row);
    return;
  }
  local.row = {
    ...local.row,
    ...end,
    phase: null,
    owner: null,
    finished_at: now,
    updated_at: now,
    version: local.row.version + 1,
  };
  const r = local.row;
  await updateJob(db, r.id, {
    state: r.state,
    phase: null,
    processed: r.processed,
    total: r.total,
    counts: r.counts,
    errors: r.errors,
    result: r.result,
    message: r.message,
    owner: null,
    finished_at: now,
    updated_at: now,
    version: r.version,
  });
  await notify(db, {
    level: r.state === 'succeeded' ? 'success' : r.state === 'failed' ? 'error' : 'warning',
    title: `${r.title}: ${r.state}`,
    message: r.message ?? '',
    jobId: r.id,
  });
  changed(r);
}

/** Writes the latest progress (one write at a time; later changes wait for the next). */
export async function persistProgress(db: Db, local: LocalJob, force = false): Promise<void> {
  if (local.writing) {
    if (force) await local.writing;
    else return;
  }
  if (!local.dirty) return;
  local.dirty = false;
  local.lastWrite = Date.now();
  const r = local.row;
  local.writing = updateJob(
    db,
    r.id,
    {
      processed: r.processed,
      total: r.total,
      phase: r.phase,
      counts: r.counts,
      cancel_requested: r.cancel_requested,
      updated_at: r.updated_at,
      heartbeat_at: Date.now(),
      version: r.version,
    },
    true,
  )
    .then(
      () => undefined,
      () => {
        local.dirty = true;
      },
    )
    .finally(() => {
      local.writing = null;
    });
  await local.writing;
}

import type { Job, JobEvent, JobState } from '@mailroom/contract/jobs';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { JobTable } from '../../db/jobs.tables.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** The SQL of `jobs` (row -> contract beside it) and the job runner's writes. */
export type JobRow = Selectable<JobTable>;

/** Refused rows kept on a job (the count of all of them is in `counts.errors`). */
export const MAX_JOB_ERRORS = 1000;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A row as the contract's event (no result, no error list). */
export function toJobEvent(r: JobRow): JobEvent {
  return {
    id: Number(r.id),
    kind: r.kind,
    state: r.state as JobState,
    title: r.title,
    phase: r.phase,
    processed: Number(r.processed),
    total: r.total === null ? null : Number(r.total),
    counts: parseJson<Record<string, number>>(r.counts, {}),
    message: r.message,
    startedBy: r.started_by,
    cancelRequested: Number(r.cancel_requested) === 1,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    updatedAt: iso(r.updated_at)!,
    finishedAt: iso(r.finished_at),
  };
}

export function toJob(r: JobRow): Job {
  return {
    ...toJobEvent(r),
    errors: parseJson<Job['errors']>(r.errors, []),
    result: parseJson<unknown>(r.result, null),
  };
}

export async function listJobs(
  db: Db,
  q: { state?: JobState | undefined; kind?: string | undefined; limit?: number | undefined },
  /** Only the jobs this account started (a domain administrator); null: every job. */
  actor: string | null = null,
): Promise<Job[]> {
  let query = db.selectFrom('jobs').selectAll();
  if (actor !== null) query = query.where('started_by', '=', actor);
  if (q.state) query = query.where('state', '=', q.state);
  if (q.kind) query = query.where('kind', '=', q.kind);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit ?? 50)
    .execute();
  return rows.map(toJob);
}

export async function readJob(db: Db, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Jobs still going, and those that changed in the last `windowMs` (the events poll). */
export async function recentJobs(db: Db, sinceMs: number): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where((eb) => eb.or([eb('state', 'in', ['queued', 'running']), eb('updated_at', '>=', sinceMs)]))
    .orderBy('id')
    .limit(500)
    .execute();
}

/** Whether a job of these kinds is queued or running (anywhere: the table is shared by instances). */
export async function hasActiveJob(db: Db, kinds: string[]): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', kinds)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return !!row;
}

/** The latest succeeded jobs of this kind (result and end), newest first. */
export async function latestSucceeded(db: Db, kind: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['result', 'finished_at'])
    .where('kind', '=', kind)
    .where('state', '=', 'succeeded')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The highest id of a finished job of these kinds (0: none): changes whenever one ends. */
export async function lastFinishedId(db: Db, kinds: string[]): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('kind', 'in', kinds)
    .where('finished_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function insertJob(db: Db, values: Insertable<JobTable>): Promise<JobRow> {
  return db.insertInto('jobs').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Writes a job's columns (only while it runs, with `onlyRunning`). */
export async function updateJob(
  db: Db,
  id: number,
  set: Updateable<JobTable>,
  onlyRunning = false,
): Promise<void> {
  let q = db.updateTable('jobs').set(set).where('id', '=', id);
  if (onlyRunning) q = q.where('state', '=', 'running');
  await q.execute();
}

/** Ends a queued job as cancelled; undefined when it is no longer queued. */
export async function cancelQueuedJob(db: Db, id: number, now: number): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'cancelled',
      cancel_requested: 1,
      message: 'Cancelled before it started',
      finished_at: now,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Asks a running job (of any process) to stop; undefined when it no longer runs. */
export async function requestCancel(db: Db, id: number, now: number): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set((eb) => ({ cancel_requested: 1, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('state', '=', 'running')
    .returningAll()
    .executeTakeFirst();
}

export async function heartbeat(db: Db, ids: number[], at: number): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ heartbeat_at: at })
    .where('id', 'in', ids)
    .where('state', '=', 'running')
    .execute();
}

/** Which of these jobs another process asked to stop. */
export async function cancelRequested(db: Db, ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where('id', 'in', ids)
    .where('cancel_requested', '=', 1)
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Running jobs of other processes whose heartbeat is older than `staleBefore`: the resumable ones
 * go back to the queue (`requeue`), the others end interrupted.
 */
export async function sweepStale(
  db: Db,
  owner: string,
  staleBefore: number,
  now: number,
  requeue: boolean,
  message: string,
): Promise<JobRow[]> {
  return (
    db
      .updateTable('jobs')
      .set((eb) => ({
        state: requeue ? 'queued' : 'interrupted',
        message,
        owner: null,
        phase: null,
        ...(requeue ? { heartbeat_at: null } : { finished_at: now }),
        updated_at: now,
        version: eb('version', '+', 1),
      }))
      .where('state', '=', 'running')
      .where('resumable', '=', requeue ? 1 : 0)
      // This process's own jobs are alive whatever their heartbeat says (a long transaction
      // on SQLite can hold the heartbeat back).
      .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '!=', owner)]))
      .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
      .returningAll()
      .execute()
  );
}

/** Claims the oldest queued job of these kinds for `owner` (a conditional update: claimed once). */
export async function claimNextJob(
  db: Db,
  kinds: string[],
  owner: string,
  now: number,
): Promise<JobRow | undefined> {
  const next = await db
    .selectFrom('jobs')
    .select('id')
    .where('state', '=', 'queued')
    .where('kind', 'in', kinds)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!next) return undefined;
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      owner,
      started_at: now,
      updated_at: now,
      heartbeat_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', next.id)
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

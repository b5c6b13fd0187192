import type { Job, JobEvent, JobState } from '@mailroom/contract/jobs';
import type { Kysely, Selectable } from 'kysely';
import type { JobTable } from '../../db/jobs.tables.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

type Db = Kysely<Database>;
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

export async function getJob(db: Db, id: number, actor: string | null = null): Promise<Job> {
  const row = await readJob(db, id);
  if (!row || (actor !== null && row.started_by !== actor)) throw notFound(`Job ${id} was not found.`);
  return toJob(row);
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

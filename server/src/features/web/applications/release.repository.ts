import type { DeployLogLine, DeployTimings, WebAppRelease } from '@mailroom/contract/web/applications';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebAppReleaseTable } from '../../../db/web.tables.ts';

type Db = Kysely<Database>;
export type ReleaseRow = Selectable<WebAppReleaseTable>;

export const NO_TIMINGS: DeployTimings = {
  clone: null,
  build: null,
  start: null,
  health: null,
  switch: null,
};

export function toRelease(r: ReleaseRow): WebAppRelease {
  return {
    id: Number(r.id),
    applicationId: Number(r.app_id),
    number: Number(r.number),
    state: r.state as WebAppRelease['state'],
    trigger: r.trigger as WebAppRelease['trigger'],
    sourceReleaseId: r.source_release_id === null ? null : Number(r.source_release_id),
    ref: r.ref,
    commit: r.commit_sha,
    path: r.path,
    port: r.port === null ? null : Number(r.port),
    vhostConfigHash: r.vhost_hash,
    environmentVariableNames: JSON.parse(r.env_names) as string[],
    diskUsage: Number(r.disk_usage),
    timings: JSON.parse(r.timings) as DeployTimings,
    message: r.message,
    jobId: r.job_id === null ? null : Number(r.job_id),
    startedBy: r.started_by,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  };
}

export async function insertRelease(
  db: Db,
  r: {
    appId: number;
    trigger: 'deploy' | 'rollback';
    sourceReleaseId: number | null;
    ref: string;
    commit: string | null;
    path: string | null;
    envSealed: string;
    envNames: string[];
    jobId: number;
    startedBy: string | null;
  },
): Promise<ReleaseRow> {
  const last = await db
    .selectFrom('web_app_releases')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('app_id', '=', r.appId)
    .executeTakeFirst();
  return db
    .insertInto('web_app_releases')
    .values({
      app_id: r.appId,
      number: Number(last?.n ?? 0) + 1,
      state: r.trigger === 'deploy' ? 'building' : 'starting',
      trigger: r.trigger,
      source_release_id: r.sourceReleaseId,
      ref: r.ref,
      commit_sha: r.commit,
      path: r.path,
      port: null,
      vhost_hash: null,
      env_sealed: r.envSealed,
      env_names: JSON.stringify(r.envNames),
      disk_usage: 0,
      timings: JSON.stringify(NO_TIMINGS),
      message: '',
      build_log: '',
      job_id: r.jobId,
      started_by: r.startedBy,
      created_at: new Date().toISOString(),
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function patchRelease(
  db: Db,
  id: number,
  patch: Partial<Omit<ReleaseRow, 'id' | 'app_id' | 'number'>>,
): Promise<void> {
  await db.updateTable('web_app_releases').set(patch).where('id', '=', id).execute();
}

export async function findRelease(db: Db, appId: number, id: number): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('web_app_releases')
    .selectAll()
    .where('app_id', '=', appId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The commit of each of these releases. */
export async function releaseCommits(
  db: Db,
  ids: number[],
): Promise<{ id: number | bigint; commit_sha: string | null }[]> {
  return db.selectFrom('web_app_releases').select(['id', 'commit_sha']).where('id', 'in', ids).execute();
}

export async function listReleases(db: Db, appId: number): Promise<ReleaseRow[]> {
  return db
    .selectFrom('web_app_releases')
    .selectAll()
    .where('app_id', '=', appId)
    .orderBy('number', 'desc')
    .execute();
}

/** Sum of the disk use of the releases whose folder is still there. */
export async function releasesDiskUsage(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('web_app_releases')
    .select(['app_id', 'path', 'disk_usage'])
    .where('path', 'is not', null)
    .execute();
  const out = new Map<number, number>();
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.path!)) continue;
    seen.add(r.path!);
    out.set(Number(r.app_id), (out.get(Number(r.app_id)) ?? 0) + Number(r.disk_usage));
  }
  return out;
}

// ---------- deploy log lines ----------

export async function appendLogLines(
  db: Db,
  appId: number,
  jobId: number,
  lines: DeployLogLine[],
): Promise<void> {
  if (!lines.length) return;
  await db
    .insertInto('web_app_log_lines')
    .values(
      lines.map((l) => ({
        job_id: jobId,
        seq: l.seq,
        app_id: appId,
        at: l.at,
        stream: l.stream,
        text: l.text,
      })),
    )
    .execute();
}

/** Lines of one job of one application (a job of another application answers none). */
export async function readLogLines(
  db: Db,
  appId: number,
  jobId: number,
  after: number,
  limit: number,
): Promise<DeployLogLine[]> {
  const rows = await db
    .selectFrom('web_app_log_lines')
    .select(['seq', 'at', 'stream', 'text'])
    .where('job_id', '=', jobId)
    .where('app_id', '=', appId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    at: r.at,
    stream: r.stream as DeployLogLine['stream'],
    text: r.text,
  }));
}

export async function latestLogJob(db: Db, appId: number): Promise<number | null> {
  const r = await db
    .selectFrom('web_app_releases')
    .select('job_id')
    .where('app_id', '=', appId)
    .where('job_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.job_id == null ? null : Number(r.job_id);
}

export async function jobState(db: Db, jobId: number): Promise<string | null> {
  const r = await db.selectFrom('jobs').select('state').where('id', '=', jobId).executeTakeFirst();
  return r?.state ?? null;
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface BucketState {
  minuteStart: number;
  minuteHits: number;
  hourStart: number;
  hourHits: number;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export const windowStarts = (now: number) => ({
  minute: Math.floor(now / MINUTE_MS) * MINUTE_MS,
  hour: Math.floor(now / HOUR_MS) * HOUR_MS,
});

/**
 * Takes one request from a principal's two fixed windows when both have room, in one statement
 * (the row is locked by the upsert on PostgreSQL, the database on SQLite): every worker and
 * instance counts against the same rows, so a limit of 100 admits exactly 100. A refused
 * request is not counted. Answers the windows after the decision and whether it was admitted.
 */
export async function takeFromBuckets(
  db: Kysely<Database>,
  principal: string,
  perMinute: number,
  perHour: number,
  now: number,
): Promise<BucketState & { admitted: boolean }> {
  const w = windowStarts(now);
  const b = 'api_rate_buckets';
  const curMinute = sql`(case when ${sql.id(b)}.minute_start >= excluded.minute_start then ${sql.id(b)}.minute_hits else 0 end)`;
  const curHour = sql`(case when ${sql.id(b)}.hour_start >= excluded.hour_start then ${sql.id(b)}.hour_hits else 0 end)`;
  const room = sql`(${curMinute} < ${perMinute} and ${curHour} < ${perHour})`;
  const res = await sql<{
    minute_start: number;
    minute_hits: number;
    hour_start: number;
    hour_hits: number;
    admitted: number;
  }>`insert into api_rate_buckets (principal, minute_start, minute_hits, hour_start, hour_hits, admitted)
      values (${principal}, ${w.minute}, ${perMinute > 0 && perHour > 0 ? 1 : 0}, ${w.hour},
        ${perMinute > 0 && perHour > 0 ? 1 : 0}, ${perMinute > 0 && perHour > 0 ? 1 : 0})
      on conflict (principal) do update set
        minute_hits = ${curMinute} + (case when ${room} then 1 else 0 end),
        hour_hits = ${curHour} + (case when ${room} then 1 else 0 end),
        admitted = (case when ${room} then 1 else 0 end),
        minute_start = (case when ${sql.id(b)}.minute_start >= excluded.minute_start
          then ${sql.id(b)}.minute_start else excluded.minute_start end),
        hour_start = (case when ${sql.id(b)}.hour_start >= excluded.hour_start
          then ${sql.id(b)}.hour_start else excluded.hour_start end)
      returning minute_start, minute_hits, hour_start, hour_hits, admitted`.execute(db);
  const r = res.rows[0]!;
  return {
    minuteStart: Number(r.minute_start),
    minuteHits: Number(r.minute_hits),
    hourStart: Number(r.hour_start),
    hourHits: Number(r.hour_hits),
    admitted: Number(r.admitted) === 1,
  };
}

/** A principal's windows as they stand now (zero when a window has moved on). */
export async function readBuckets(
  db: Kysely<Database>,
  principal: string,
  now: number,
): Promise<BucketState> {
  const w = windowStarts(now);
  const r = await db
    .selectFrom('api_rate_buckets')
    .selectAll()
    .where('principal', '=', principal)
    .executeTakeFirst();
  return {
    minuteStart: w.minute,
    minuteHits: r && Number(r.minute_start) >= w.minute ? Number(r.minute_hits) : 0,
    hourStart: w.hour,
    hourHits: r && Number(r.hour_start) >= w.hour ? Number(r.hour_hits) : 0,
  };
}

/** Several principals' windows as they stand now, in one read (absent: nothing counted yet). */
export async function readBucketsOf(
  db: Kysely<Database>,
  principals: string[],
  now: number,
): Promise<Map<string, BucketState>> {
  const out = new Map<string, BucketState>();
  if (!principals.length) return out;
  const w = windowStarts(now);
  const rows = await db
    .selectFrom('api_rate_buckets')
    .selectAll()
    .where('principal', 'in', principals)
    .execute();
  for (const r of rows)
    out.set(r.principal, {
      minuteStart: w.minute,
      minuteHits: Number(r.minute_start) >= w.minute ? Number(r.minute_hits) : 0,
      hourStart: w.hour,
      hourHits: Number(r.hour_start) >= w.hour ? Number(r.hour_hits) : 0,
    });
  return out;
}

/** Buckets untouched for over an hour. */
export async function purgeBuckets(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .deleteFrom('api_rate_buckets')
    .where('hour_start', '<', now - 2 * HOUR_MS)
    .execute();
}

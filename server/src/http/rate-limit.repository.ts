import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The SQL of `rate_limits`: one fixed-window counter per bucket, shared by every instance. */

/** Adds hits to a bucket (a new window when the last one ended); answers the window's count and start. */
export async function addRateHits(
  db: Kysely<Database>,
  key: string,
  delta: number,
  windowMs: number,
  now: number,
): Promise<{ hits: number; window_start: number } | undefined> {
  const res = await sql<{
    hits: number;
    window_start: number;
  }>`insert into rate_limits (bucket, window_start, hits)
        values (${key}, ${now}, ${delta})
        on conflict (bucket) do update set
          hits = case when rate_limits.window_start + ${windowMs} <= ${now} then ${delta}
            else rate_limits.hits + ${delta} end,
          window_start = case when rate_limits.window_start + ${windowMs} <= ${now}
            then ${now} else rate_limits.window_start end
        returning hits, window_start`.execute(db);
  return res.rows[0];
}

/** Counters whose window ended long ago (the periodic purge). */
export async function purgeRateLimits(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

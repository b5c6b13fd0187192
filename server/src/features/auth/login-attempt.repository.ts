import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The SQL of `login_attempts`: one row per attempt per bucket (pair, account, address). */

type Db = Kysely<Database>;

export interface BucketState {
  n: number;
  /** Oldest and newest attempt in the window (0 when none). */
  oldest: number;
  newest: number;
}

export async function bucketState(db: Db, bucket: string, since: number): Promise<BucketState> {
  const row = await db
    .selectFrom('login_attempts')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.min<number>('at').as('oldest'),
      eb.fn.max<number>('at').as('newest'),
    ])
    .where('bucket', '=', bucket)
    .where('at', '>', since)
    .executeTakeFirst();
  return { n: Number(row?.n ?? 0), oldest: Number(row?.oldest ?? 0), newest: Number(row?.newest ?? 0) };
}

/** PostgreSQL: takes the transaction's advisory lock of each key (in order). */
export async function lockBuckets(trx: Db, keys: string[]): Promise<void> {
  for (const key of keys) await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * Inserts one attempt in each bucket by one statement whose condition re-counts them: only if the
 * pair still has `pairCount` attempts and the account (and address) are below their ceilings.
 * Answers the new rows' ids (none: someone else reserved meanwhile, or a ceiling was reached).
 */
export async function insertAttemptsIfRoom(
  trx: Db,
  a: {
    now: number;
    since: number;
    pair: string;
    pairCount: number;
    account: string;
    maxPerAccount: number;
    ip: string | null;
    maxPerIp: number;
  },
): Promise<number[]> {
  const buckets = [a.pair, a.account, ...(a.ip ? [a.ip] : [])];
  const values = sql.join(buckets.map((b) => sql`(${b})`));
  const count = (bucket: string) =>
    sql`(select count(*) from login_attempts where bucket = ${bucket} and at > ${a.since})`;
  const ipOk = a.ip ? sql`and ${count(a.ip)} < ${a.maxPerIp}` : sql``;
  const rows = await sql<{ id: number }>`insert into login_attempts (bucket, at)
      select v.column1, cast(${a.now} as bigint) from (values ${values}) as v
      where ${count(a.pair)} = ${a.pairCount}
        and ${count(a.account)} < ${a.maxPerAccount} ${ipOk}
      returning id`.execute(trx);
  return rows.rows.map((r) => Number(r.id));
}

export async function deleteAttempts(db: Db, ids: number[], buckets: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('login_attempts').where('id', 'in', ids).execute();
  await db.deleteFrom('login_attempts').where('bucket', 'in', buckets).execute();
}

export async function insertAttempts(db: Db, buckets: string[], at: number): Promise<void> {
  await db
    .insertInto('login_attempts')
    .values(buckets.map((bucket) => ({ bucket, at })))
    .execute();
}

/** Attempts older than any window: removed by the periodic purge. */
export async function purgeLoginAttempts(db: Db, before: number): Promise<number> {
  const res = await db.deleteFrom('login_attempts').where('at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

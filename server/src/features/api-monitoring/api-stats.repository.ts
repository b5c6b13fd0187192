import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { BUCKET_COLUMNS, LATENCY_BUCKETS } from './latency-histogram.service.ts';

/** What one process counted for one minute and route since its last flush. */
export interface MinuteDelta {
  minute: number;
  method: string;
  route: string;
  count: number;
  errors: number;
  clientErrors: number;
  limited: number;
  cacheHits: number;
  cacheMisses: number;
  cacheBypasses: number;
  cacheEvictions: number;
  totalMs: number;
  maxMs: number;
  buckets: number[];
}

/** What one process counted for one minute and API key since its last flush. */
export interface KeyMinuteDelta {
  minute: number;
  keyId: number;
  count: number;
  errors: number;
  clientErrors: number;
  limited: number;
  totalMs: number;
  maxMs: number;
  buckets: number[];
}

/** An API key's sums over a window (every worker, every minute in it). */
export type KeySums = KeyMinuteDelta;

export interface TotalDelta {
  method: string;
  route: string;
  status: number;
  count: number;
  totalMs: number;
  buckets: number[];
}

export interface RecentRequest {
  at: number;
  method: string;
  route: string;
  status: number;
  ms: number;
  cache: string | null;
}

/** A route's sums over a window (every worker, every minute in it). */
export interface RouteSums {
  method: string;
  route: string;
  count: number;
  errors: number;
  clientErrors: number;
  limited: number;
  cacheHits: number;
  cacheMisses: number;
  cacheBypasses: number;
  cacheEvictions: number;
  totalMs: number;
  maxMs: number;
  buckets: number[];
}

export interface TotalRow {
  method: string;
  route: string;
  status: number;
  count: number;
  totalMs: number;
  buckets: number[];
}

/** How many of the latest requests are kept (the page shows 30). */
export const RECENT_KEPT = 100;

const ids = (names: readonly string[]) => sql.join(names.map((n) => sql.id(n)));
const addUp = (table: string, names: readonly string[]) =>
  sql.join(names.map((n) => sql`${sql.id(n)} = ${sql.id(table)}.${sql.id(n)} + excluded.${sql.id(n)}`));
const values = (rows: RawBuilder<unknown>[]) => sql.join(rows);
const bucketValues = (b: number[]) =>
  sql.join(Array.from({ length: LATENCY_BUCKETS }, (_, i) => sql`${b[i] ?? 0}`));

/**
 * Adds one process's counts to the shared roll-ups in one transaction (upserts that add, so every
 * worker and instance writes into the same rows), keeps the latest requests, and records the
 * process's cache size.
 */
export async function flushStats(
  db: Kysely<Database>,
  batch: {
    minutes: MinuteDelta[];
    /** Requests made with API keys (optional: a flush may carry none). */
    keyMinutes?: KeyMinuteDelta[];
    totals: TotalDelta[];
    recent: RecentRequest[];
    node?: { node: string; size: number; now: number };
  },
): Promise<void> {
  const { minutes, totals, recent, node, keyMinutes = [] } = batch;
  await db.transaction().execute(async (trx) => {
    const minuteSums = [
      'count',
      'errors',
      'client_errors',
      'limited',
      'cache_hits',
      'cache_misses',
      'cache_bypasses',
      'cache_evictions',
      'total_ms',
      ...BUCKET_COLUMNS,
    ];
    // Chunks keep each statement's parameters well below both databases' limits.
    for (let i = 0; i < minutes.length; i += 100) {
      const rows = minutes.slice(i, i + 100).map(
        (m) =>
          sql`(${m.minute}, ${m.method}, ${m.route}, ${m.count}, ${m.errors}, ${m.clientErrors}, ${m.limited},
            ${m.cacheHits}, ${m.cacheMisses}, ${m.cacheBypasses}, ${m.cacheEvictions}, ${m.totalMs}, ${m.maxMs},
            ${bucketValues(m.buckets)})`,
      );
      await sql`insert into api_stat_minutes (minute, method, route, count, errors, client_errors, limited,
          cache_hits, cache_misses, cache_bypasses, cache_evictions, total_ms, max_ms, ${ids(BUCKET_COLUMNS)})
        values ${values(rows)}
        on conflict (minute, method, route) do update set ${addUp('api_stat_minutes', minuteSums)},
          max_ms = case when excluded.max_ms > api_stat_minutes.max_ms then excluded.max_ms
            else api_stat_minutes.max_ms end`.execute(trx);
    }
    const keySumColumns = ['count', 'errors', 'client_errors', 'limited', 'total_ms', ...BUCKET_COLUMNS];
    for (let i = 0; i < keyMinutes.length; i += 100) {
      const rows = keyMinutes.slice(i, i + 100).map(
        (k) =>
          sql`(${k.minute}, ${k.keyId}, ${k.count}, ${k.errors}, ${k.clientErrors}, ${k.limited}, ${k.totalMs},
            ${k.maxMs}, ${bucketValues(k.buckets)})`,
      );
      await sql`insert into api_key_stat_minutes (minute, key_id, count, errors, client_errors, limited,
          total_ms, max_ms, ${ids(BUCKET_COLUMNS)})
        values ${values(rows)}
        on conflict (minute, key_id) do update set ${addUp('api_key_stat_minutes', keySumColumns)},
          max_ms = case when excluded.max_ms > api_key_stat_minutes.max_ms then excluded.max_ms
            else api_key_stat_minutes.max_ms end`.execute(trx);
    }
    for (let i = 0; i < totals.length; i += 100) {
      const rows = totals
        .slice(i, i + 100)
        .map(
          (t) =>
            sql`(${t.method}, ${t.route}, ${t.status}, ${t.count}, ${t.totalMs}, ${bucketValues(t.buckets)})`,
        );
      await sql`insert into api_stat_totals (method, route, status, count, total_ms, ${ids(BUCKET_COLUMNS)})
        values ${values(rows)}
        on conflict (method, route, status) do update set
          ${addUp('api_stat_totals', ['count', 'total_ms', ...BUCKET_COLUMNS])}`.execute(trx);
    }
    if (recent.length) {
      await trx.insertInto('api_recent_requests').values(recent).execute();
      const top = await trx
        .selectFrom('api_recent_requests')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const last = Number(top?.id ?? 0);
      if (last > RECENT_KEPT)
        await trx
          .deleteFrom('api_recent_requests')
          .where('id', '<=', last - RECENT_KEPT)
          .execute();
    }
    if (node)
      await trx
        .insertInto('api_cache_nodes')
        .values({ node: node.node, size: node.size, seen_at: node.now })
        .onConflict((oc) => oc.column('node').doUpdateSet({ size: node.size, seen_at: node.now }))
        .execute();
  });
}

const num = (v: unknown) => Number(v ?? 0);

/** Every route's sums over the minutes from `fromMinute` on. */
export async function routeSums(db: Kysely<Database>, fromMinute: number): Promise<RouteSums[]> {
  const sums = [
    'count',
    'errors',
    'client_errors',
    'limited',
    'cache_hits',
    'cache_misses',
    'cache_bypasses',
    'cache_evictions',
    'total_ms',
    ...BUCKET_COLUMNS,
  ];
  const res = await sql<Record<string, unknown>>`select method, route,
      ${sql.join(sums.map((c) => sql`sum(${sql.id(c)}) as ${sql.id(c)}`))}, max(max_ms) as max_ms
    from api_stat_minutes where minute >= ${fromMinute} group by method, route`.execute(db);
  return res.rows.map((r) => ({
    method: String(r.method),
    route: String(r.route),
    count: num(r.count),
    errors: num(r.errors),
    clientErrors: num(r.client_errors),
    limited: num(r.limited),
    cacheHits: num(r.cache_hits),
    cacheMisses: num(r.cache_misses),
    cacheBypasses: num(r.cache_bypasses),
    cacheEvictions: num(r.cache_evictions),
    totalMs: num(r.total_ms),
    maxMs: num(r.max_ms),
    buckets: BUCKET_COLUMNS.map((c) => num(r[c])),
  }));
}

/** Every API key's sums over the minutes from `fromMinute` on (keys without requests are absent). */
export async function keySums(db: Kysely<Database>, fromMinute: number): Promise<KeySums[]> {
  const sums = ['count', 'errors', 'client_errors', 'limited', 'total_ms', ...BUCKET_COLUMNS];
  const res = await sql<Record<string, unknown>>`select key_id,
      ${sql.join(sums.map((c) => sql`sum(${sql.id(c)}) as ${sql.id(c)}`))}, max(max_ms) as max_ms
    from api_key_stat_minutes where minute >= ${fromMinute} group by key_id`.execute(db);
  return res.rows.map((r) => ({
    minute: fromMinute,
    keyId: num(r.key_id),
    count: num(r.count),
    errors: num(r.errors),
    clientErrors: num(r.client_errors),
    limited: num(r.limited),
    totalMs: num(r.total_ms),
    maxMs: num(r.max_ms),
    buckets: BUCKET_COLUMNS.map((c) => num(r[c])),
  }));
}

export async function recentRequests(db: Kysely<Database>, limit: number): Promise<RecentRequest[]> {
  const rows = await db
    .selectFrom('api_recent_requests')
    .select(['at', 'method', 'route', 'status', 'ms', 'cache'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    at: num(r.at),
    method: r.method,
    route: r.route,
    status: num(r.status),
    ms: num(r.ms),
    cache: r.cache,
  }));
}

export async function totalRows(db: Kysely<Database>): Promise<TotalRow[]> {
  const res = await sql<
    Record<string, unknown>
  >`select * from api_stat_totals order by route, method, status`.execute(db);
  return res.rows.map((r) => ({
    method: String(r.method),
    route: String(r.route),
    status: num(r.status),
    count: num(r.count),
    totalMs: num(r.total_ms),
    buckets: BUCKET_COLUMNS.map((c) => num(r[c])),
  }));
}

/** The cache entries held by the processes that flushed since `since`. */
export async function cacheSize(db: Kysely<Database>, since: number): Promise<number> {
  const row = await db
    .selectFrom('api_cache_nodes')
    .select((eb) => eb.fn.sum<number>('size').as('size'))
    .where('seen_at', '>=', since)
    .executeTakeFirst();
  return num(row?.size);
}

/** Roll-ups older than the longest window shown (24 h), and processes gone for a day. */
export async function purgeStats(
  db: Kysely<Database>,
  beforeMinute: number,
  nodesBefore: number,
): Promise<void> {
  await db.deleteFrom('api_stat_minutes').where('minute', '<', beforeMinute).execute();
  await db.deleteFrom('api_key_stat_minutes').where('minute', '<', beforeMinute).execute();
  await db.deleteFrom('api_cache_nodes').where('seen_at', '<', nodesBefore).execute();
}

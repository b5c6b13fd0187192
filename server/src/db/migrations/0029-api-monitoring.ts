import { type Kysely, sql } from 'kysely';
import { BUCKET_COLUMNS } from '../../features/api-monitoring/latency-histogram.service.ts';
import { bigint, withId } from '../column-types.ts';

/**
 * API monitoring (issue 21): request roll-ups per minute and route written by every worker and
 * instance (their response-time histograms add up, so percentiles can be read from the sum),
 * running totals for /metrics, the latest requests, the editable rate limit and response cache
 * settings, and the rate limit's buckets per principal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let minutes = db.schema
    .createTable('api_stat_minutes')
    .addColumn('minute', bigint(db), (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('count', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('errors', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('client_errors', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('limited', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('cache_hits', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('cache_misses', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('cache_bypasses', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('cache_evictions', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('total_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('max_ms', 'double precision', (c) => c.notNull().defaultTo(0));
  for (const h of BUCKET_COLUMNS) minutes = minutes.addColumn(h, bigint(db), (c) => c.notNull().defaultTo(0));
  await minutes.addPrimaryKeyConstraint('api_stat_minutes_pk', ['minute', 'method', 'route']).execute();

  let totals = db.schema
    .createTable('api_stat_totals')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('count', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('total_ms', 'double precision', (c) => c.notNull().defaultTo(0));
  for (const h of BUCKET_COLUMNS) totals = totals.addColumn(h, bigint(db), (c) => c.notNull().defaultTo(0));
  await totals.addPrimaryKeyConstraint('api_stat_totals_pk', ['method', 'route', 'status']).execute();

  await withId(db, db.schema.createTable('api_recent_requests'))
    .addColumn('at', bigint(db), (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('ms', 'double precision', (c) => c.notNull())
    .addColumn('cache', 'text')
    .execute();

  await db.schema
    .createTable('api_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('rate_enabled', 'integer', (c) => c.notNull())
    .addColumn('rate_per_minute', 'integer', (c) => c.notNull())
    .addColumn('rate_per_hour', 'integer', (c) => c.notNull())
    .addColumn('cache_enabled', 'integer', (c) => c.notNull())
    .addColumn('cache_ttl_seconds', 'integer', (c) => c.notNull())
    .addColumn('cache_max_size', 'integer', (c) => c.notNull())
    /** Raised by Clear: every worker empties its cache when it sees a new value. */
    .addColumn('cache_generation', bigint(db), (c) => c.notNull())
    .addColumn('updated_at', bigint(db), (c) => c.notNull())
    /** /metrics open to anyone (0), or only to a key with the metrics area or an allowed address (1). */
    .addColumn('metrics_protected', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON list of addresses or CIDR ranges that may scrape /metrics without a key. */
    .addColumn('metrics_allowed', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await sql`insert into api_settings (id, rate_enabled, rate_per_minute, rate_per_hour, cache_enabled,
      cache_ttl_seconds, cache_max_size, cache_generation, updated_at)
    values (1, 0, 1000, 10000, 1, 300, 100, 0, 0)`.execute(db);

  await db.schema
    .createTable('api_rate_buckets')
    .addColumn('principal', 'text', (c) => c.primaryKey())
    .addColumn('minute_start', bigint(db), (c) => c.notNull())
    .addColumn('minute_hits', 'integer', (c) => c.notNull())
    .addColumn('hour_start', bigint(db), (c) => c.notNull())
    .addColumn('hour_hits', 'integer', (c) => c.notNull())
    /** 1 when the latest request was admitted (read back by the same statement). */
    .addColumn('admitted', 'integer', (c) => c.notNull())
    .execute();

  // API keys for automation: only the SHA-256 of the key is kept (it is shown once).
  await withId(db, db.schema.createTable('api_keys'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('areas', 'text', (c) => c.notNull())
    .addColumn('domains', 'text', (c) => c.notNull())
    .addColumn('allowed', 'text', (c) => c.notNull())
    .addColumn('expires_at', bigint(db))
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('revoked_at', bigint(db))
    .addColumn('last_used_at', bigint(db))
    .addColumn('last_ip', 'text')
    .addColumn('requests', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('errors', bigint(db), (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('api_cache_nodes')
    .addColumn('node', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('seen_at', bigint(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'api_keys',
    'api_cache_nodes',
    'api_rate_buckets',
    'api_settings',
    'api_recent_requests',
    'api_stat_totals',
    'api_stat_minutes',
  ])
    await db.schema.dropTable(t).execute();
}

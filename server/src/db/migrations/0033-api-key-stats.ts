import type { Kysely } from 'kysely';
import { BUCKET_COLUMNS } from '../../features/api-monitoring/latency-histogram.service.ts';
import { bigint } from '../column-types.ts';

/**
 * Per-key figures of API keys (issue 21, API monitoring item 5): request roll-ups per minute and
 * key, written by every worker and instance with the route roll-ups (same flush), with the same
 * response-time histogram columns so a key's percentiles are read from the sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let t = db.schema
    .createTable('api_key_stat_minutes')
    .addColumn('minute', bigint(db), (c) => c.notNull())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('count', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('errors', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('client_errors', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('limited', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('total_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('max_ms', 'double precision', (c) => c.notNull().defaultTo(0));
  for (const h of BUCKET_COLUMNS) t = t.addColumn(h, bigint(db), (c) => c.notNull().defaultTo(0));
  await t.addPrimaryKeyConstraint('api_key_stat_minutes_pk', ['minute', 'key_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_key_stat_minutes').execute();
}

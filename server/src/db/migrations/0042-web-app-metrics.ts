import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * The latest reading of each web application's Monitoring Endpoint (issue 20): one row per app,
 * written by the process that runs the app, read by every worker.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_app_metrics')
    .addColumn('app_id', 'integer', (c) => c.primaryKey().references('web_apps.id').onDelete('cascade'))
    .addColumn('scraped_at', bigint(db), (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('series_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('series', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_app_metrics').execute();
}

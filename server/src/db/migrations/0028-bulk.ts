import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

/**
 * Bulk operations (issue 21): a run with its frozen plan, a ledger row per item, and each
 * administrator's operation preferences. `jobs.resumable` marks jobs that a later start takes up
 * again (queued once more) instead of ending them "interrupted".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('resumable', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('bulk_runs'))
    .addColumn('operation', 'text', (c) => c.notNull())
    // planned | running | completed | failed | cancelled | discarded
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('options', 'text')
    .addColumn('plan_counts', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('retry_of', 'integer')
    .addColumn('cause', 'text')
    .addColumn('current_item', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('batches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('started_at', bigint(db))
    .addColumn('finished_at', bigint(db))
    .execute();
  await db.schema.createIndex('bulk_runs_state_idx').on('bulk_runs').columns(['state', 'id']).execute();

  await withId(db, db.schema.createTable('bulk_items'))
    .addColumn('run_id', 'integer', (c) => c.notNull().references('bulk_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    // create | update | delete | run | skip | invalid
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('payload', 'text')
    // pending | succeeded | failed | not_processed | skipped
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('batch', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('done_at', bigint(db))
    .execute();
  await db.schema
    .createIndex('bulk_items_run_idx')
    .on('bulk_items')
    .columns(['run_id', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('bulk_items_state_idx')
    .on('bulk_items')
    .columns(['run_id', 'state', 'seq'])
    .execute();

  await db.schema
    .createTable('bulk_preferences')
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('updated_at', bigint(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_preferences_pk', ['admin_email', 'operation'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_preferences').execute();
  await db.schema.dropTable('bulk_items').execute();
  await db.schema.dropTable('bulk_runs').execute();
  await db.schema.alterTable('jobs').dropColumn('resumable').execute();
}

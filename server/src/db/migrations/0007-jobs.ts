import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Long work (imports, later ACME orders, backups, deployments) with its live progress.
  await withId(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('phase', 'text')
    .addColumn('processed', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('total', bigint(db))
    .addColumn('counts', 'text')
    .addColumn('errors', 'text')
    .addColumn('result', 'text')
    .addColumn('message', 'text')
    .addColumn('input', 'text')
    .addColumn('started_by', 'text')
    .addColumn('owner', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('started_at', bigint(db))
    .addColumn('updated_at', bigint(db), (c) => c.notNull())
    .addColumn('finished_at', bigint(db))
    .addColumn('heartbeat_at', bigint(db))
    .execute();
  // The live set (queued/running) is read by every events poll and recovery sweep.
  await db.schema.createIndex('jobs_state_idx').on('jobs').columns(['state', 'id']).execute();
  await db.schema.createIndex('jobs_updated_idx').on('jobs').columns(['updated_at']).execute();

  // Named locks with an owner and an expiry (SQLite; PostgreSQL uses advisory locks).
  await db.schema
    .createTable('locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', bigint(db), (c) => c.notNull())
    .execute();

  // Server-side notifications for the console's events stream (every process reads them).
  await withId(db, db.schema.createTable('notifications'))
    .addColumn('at', bigint(db), (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('locks').execute();
  await db.schema.dropTable('jobs').execute();
}

import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('window_start', bigint(db), (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_idx').on('rate_limits').column('window_start').execute();
  // The periodic purge removes old sign-in attempts by time alone.
  await db.schema.createIndex('login_attempts_at_idx').on('login_attempts').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('login_attempts_at_idx').execute();
  await db.schema.dropTable('rate_limits').execute();
}

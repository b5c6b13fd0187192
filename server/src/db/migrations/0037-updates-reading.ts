import { type Kysely, sql } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * The persisted updates reading (issue 22 #18): /system/management answered its updates tab only
 * after apt had listed and described the upgradable packages (5-6 s cold, in every worker). One
 * row, shared by every worker and instance, refreshed in the background; reads never wait for apt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('updates_reading')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('body', 'text')
    .addColumn('version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('read_at', bigint(db))
    .addColumn('refresh_started_at', bigint(db))
    .execute();
  await sql`insert into updates_reading (id, version) values (1, '')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('updates_reading').execute();
}

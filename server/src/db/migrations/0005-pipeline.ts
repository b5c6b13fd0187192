import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('apply_outcomes')
    .addColumn('target', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('step', 'text')
    .addColumn('changed', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text')
    .addColumn('actor', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('apply_outcomes').execute();
}

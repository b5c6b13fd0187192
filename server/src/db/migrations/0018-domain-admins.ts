import type { Kysely } from 'kysely';

/**
 * Domain administrators (issue 10): a role per console account ('admin' | 'domain-admin') and the
 * domains assigned to each domain administrator.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('admins')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute();
  await db.schema
    .createTable('admin_domains')
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('admin_domains_pk', ['admin_id', 'domain'])
    .execute();
}

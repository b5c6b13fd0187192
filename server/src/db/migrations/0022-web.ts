import type { Kysely } from 'kysely';
import { withId } from '../column-types.ts';

/** Web hosting (issue 19): virtual hosts, the names they answer to, the web server settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('web_vhosts'))
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('search', 'text', (c) => c.notNull())
    .addColumn('document_root', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list pages by key in domain order, filtered by status.
  await db.schema
    .createIndex('web_vhosts_status_domain_idx')
    .on('web_vhosts')
    .columns(['status', 'domain'])
    .execute();
  await db.schema
    .createIndex('web_vhosts_document_root_idx')
    .on('web_vhosts')
    .columns(['document_root'])
    .execute();
  await db.schema
    .createTable('web_vhost_names')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('vhost_id', 'integer', (c) => c.notNull().references('web_vhosts.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('web_vhost_names_vhost_idx')
    .on('web_vhost_names')
    .columns(['vhost_id'])
    .execute();
  await db.schema
    .createTable('web_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_settings').execute();
  await db.schema.dropTable('web_vhost_names').execute();
  await db.schema.dropTable('web_vhosts').execute();
}

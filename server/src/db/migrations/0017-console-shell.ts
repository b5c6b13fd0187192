import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * Console shell (issue 12): per-administrator notification state; indexes for the audit screen's
 * filters and for the global search's prefix match on record names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_marks')
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('notification_id', 'integer', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('notification_marks_pk', ['admin_id', 'notification_id'])
    .execute();
  await db.schema
    .createTable('notification_watermarks')
    .addColumn('admin_id', 'integer', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
    .addColumn('read_upto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared_upto', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Audit screen: newest first by who or by what, paged by id.
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor', 'id']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target', 'id']).execute();

  // Global search: record names by prefix, bytewise on both databases (PostgreSQL's default
  // collation would not serve a range on a prefix).
  if (isPostgres(db))
    await sql`create index dns_records_qname_search_idx on dns_records ((lower(qname) collate "C"), id)`.execute(
      db,
    );
  else await sql`create index dns_records_qname_search_idx on dns_records (lower(qname), id)`.execute(db);
  if (isPostgres(db))
    await sql`create index dns_zones_domain_search_idx on dns_zones ((lower(domain) collate "C"))`.execute(
      db,
    );
  else await sql`create index dns_zones_domain_search_idx on dns_zones (lower(domain))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists dns_zones_domain_search_idx`.execute(db);
  await sql`drop index if exists dns_records_qname_search_idx`.execute(db);
  await sql`drop index if exists audit_log_target_idx`.execute(db);
  await sql`drop index if exists audit_log_actor_idx`.execute(db);
  await db.schema.dropTable('notification_watermarks').execute();
  await db.schema.dropTable('notification_marks').execute();
}

import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('dns_zones'))
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('zone_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('primary_ns', 'text', (c) => c.notNull())
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('serial', bigint(db), (c) => c.notNull())
    .addColumn('refresh', 'integer', (c) => c.notNull())
    .addColumn('retry', 'integer', (c) => c.notNull())
    .addColumn('expire', 'integer', (c) => c.notNull())
    .addColumn('minimum', 'integer', (c) => c.notNull())
    .addColumn('default_ttl', 'integer', (c) => c.notNull())
    .addColumn('primaries', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('record_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rendered_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('dns_records'))
    .addColumn('zone', 'text', (c) => c.notNull().references('dns_zones.domain').onDelete('cascade'))
    .addColumn('qname', 'text', (c) => c.notNull())
    .addColumn('rtype', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('ttl', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer')
    .addColumn('weight', 'integer')
    .addColumn('port', 'integer')
    .execute();
  // Paging in (zone, name, type) order, with or without a zone filter, and with a type filter;
  // the first also serves the foreign key.
  await db.schema
    .createIndex('dns_records_zone_name_idx')
    .on('dns_records')
    .columns(['zone', 'qname', 'rtype', 'id'])
    .execute();
  await db.schema
    .createIndex('dns_records_type_zone_idx')
    .on('dns_records')
    .columns(['rtype', 'zone', 'qname', 'id'])
    .execute();

  // Records per zone and type, kept in step by every write: totals of filtered lists never scan.
  await db.schema
    .createTable('dns_record_counts')
    .addColumn('zone', 'text', (c) => c.notNull().references('dns_zones.domain').onDelete('cascade'))
    .addColumn('rtype', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dns_record_counts_pk', ['zone', 'rtype'])
    .execute();
  await db.schema
    .createIndex('dns_record_counts_type_idx')
    .on('dns_record_counts')
    .columns(['rtype', 'n'])
    .execute();

  await db.schema
    .createTable('dns_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('check_ok', 'integer')
    .addColumn('checked_at', 'text')
    .addColumn('applied_at', 'text')
    .addColumn('check_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('check_output', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reload', 'text', (c) => c.notNull().defaultTo('{"attempted":false,"ok":null,"output":""}'))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['dns_record_counts', 'dns_records', 'dns_zones', 'dns_settings'])
    await db.schema.dropTable(t).execute();
}

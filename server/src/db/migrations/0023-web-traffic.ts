import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * Web figures (issue 19): Apache's shared access log (%v %a %t %>s %B %D) rolled up per host and
 * minute, and how far the log has been read, so every Mailroom instance reads each line once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_traffic_minutes')
    .addColumn('vhost', 'text', (c) => c.notNull())
    .addColumn('minute', bigint(db), (c) => c.notNull())
    .addColumn('requests', bigint(db), (c) => c.notNull())
    .addColumn('errors', bigint(db), (c) => c.notNull())
    .addColumn('bytes', bigint(db), (c) => c.notNull())
    .addColumn('duration_us', bigint(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('web_traffic_minutes_pk', ['vhost', 'minute'])
    .execute();
  await db.schema
    .createIndex('web_traffic_minutes_minute_idx')
    .on('web_traffic_minutes')
    .columns(['minute'])
    .execute();
  await db.schema
    .createTable('web_log_position')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('inode', 'text', (c) => c.notNull())
    .addColumn('byte_offset', bigint(db), (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_log_position').execute();
  await db.schema.dropTable('web_traffic_minutes').execute();
}

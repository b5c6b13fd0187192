import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

/** System administration: alerts, webhooks and their deliveries, backups, system settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('system_alerts'))
    .addColumn('type', 'text', (c) => c.notNull())
    /** The condition (e.g. `disk`, `service:postfix`); one open alert per key. */
    .addColumn('condition_key', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('raised_at', bigint(db), (c) => c.notNull())
    .addColumn('resolved_at', bigint(db))
    .addColumn('acknowledged_by', 'text')
    .addColumn('acknowledged_at', bigint(db))
    .execute();
  await db.schema
    .createIndex('system_alerts_open_idx')
    .on('system_alerts')
    .columns(['condition_key', 'resolved_at'])
    .execute();

  await withId(db, db.schema.createTable('system_webhooks'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) =>
      c.notNull().references('system_webhooks.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    /** pending | delivered | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('delivered_at', bigint(db))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_hook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();

  await withId(db, db.schema.createTable('system_backups'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** full | incremental */
    .addColumn('type', 'text', (c) => c.notNull())
    /** active (being written) | completed | failed | expired */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('base_id', 'integer')
    .addColumn('file', 'text')
    .addColumn('size', bigint(db), (c) => c.notNull())
    .addColumn('sha256', 'text')
    /** manual | schedule:<slot> */
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('finished_at', bigint(db))
    .addColumn('expires_at', bigint(db))
    .addColumn('verified_at', bigint(db))
    .addColumn('verify_result', 'text')
    .execute();
  await db.schema.createIndex('system_backups_trigger_idx').on('system_backups').column('trigger').execute();

  await db.schema
    .createTable('system_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', bigint(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'system_settings',
    'system_backups',
    'webhook_deliveries',
    'system_webhooks',
    'system_alerts',
  ])
    await db.schema.dropTable(t).execute();
}

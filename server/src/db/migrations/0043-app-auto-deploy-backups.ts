import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * Web applications (issue 20): auto deploy and the apps' own backups.
 * - `web_app_hooks`: one row per application that auto deploy has seen: its webhook secret, sealed
 *   with the apps' vault key (the HMAC needs the secret itself, so it is encrypted, not hashed), the
 *   commit auto deploy last handed to a deploy (a compare-and-set on it keeps two processes or a
 *   webhook and a poll from deploying one commit twice) and the last check's outcome.
 * - `web_app_hook_deliveries`: delivery ids seen inside the replay window (the same id again: refused).
 * - `system_backups.app_id` / `app_name`: a backup of one application's data folder (null otherwise),
 *   kept after the application is deleted so its backups stay restorable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_app_hooks')
    .addColumn('app_id', 'integer', (c) => c.primaryKey())
    .addColumn('secret_sealed', 'text')
    .addColumn('secret_created_at', 'text')
    .addColumn('last_commit', 'text')
    .addColumn('last_checked_at', 'text')
    .addColumn('last_result', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('web_app_hook_deliveries')
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('received_at', bigint(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('web_app_hook_deliveries_pk', ['app_id', 'delivery_id'])
    .execute();
  await db.schema
    .createIndex('web_app_hook_deliveries_at_idx')
    .on('web_app_hook_deliveries')
    .column('received_at')
    .execute();
  await db.schema.alterTable('system_backups').addColumn('app_id', 'integer').execute();
  await db.schema.alterTable('system_backups').addColumn('app_name', 'text').execute();
  await db.schema
    .createIndex('system_backups_app_idx')
    .on('system_backups')
    .columns(['app_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('system_backups_app_idx').execute();
  await db.schema.alterTable('system_backups').dropColumn('app_name').execute();
  await db.schema.alterTable('system_backups').dropColumn('app_id').execute();
  await db.schema.dropTable('web_app_hook_deliveries').execute();
  await db.schema.dropTable('web_app_hooks').execute();
}

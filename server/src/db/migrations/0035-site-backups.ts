import type { Kysely } from 'kysely';

/**
 * Per-site backups (issue 19, virtual host backups): a backup row may hold one site's files only,
 * made on that site's own schedule and pruned by that site's own retention, in the same catalogue
 * as the system backups. `site_id` is the virtual host's id (kept after the host is renamed or
 * deleted: its backups stay restorable), `site_domain` its name when the backup was made. Both are
 * null for a system backup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('system_backups').addColumn('site_id', 'integer').execute();
  await db.schema.alterTable('system_backups').addColumn('site_domain', 'text').execute();
  await db.schema
    .createIndex('system_backups_site_idx')
    .on('system_backups')
    .columns(['site_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('system_backups_site_idx').execute();
  await db.schema.alterTable('system_backups').dropColumn('site_domain').execute();
  await db.schema.alterTable('system_backups').dropColumn('site_id').execute();
}

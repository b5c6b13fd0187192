import type { Kysely } from 'kysely';

/**
 * Alerts in the notifications bell (issue 22 #12): a notification raised for a system alert names
 * it, so the bell shows it while the alert is open and drops it once the alert is resolved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('alert_id', 'integer').execute();
  await db.schema.createIndex('notifications_alert_idx').on('notifications').column('alert_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_alert_idx').execute();
  await db.schema.alterTable('notifications').dropColumn('alert_id').execute();
}

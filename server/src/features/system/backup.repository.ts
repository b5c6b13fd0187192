import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SystemBackupTable } from '../../db/system-admin.tables.ts';

type Db = Kysely<Database>;

/** Records a site's backup (status active) so the list shows it while the job writes it. */
export async function insertSiteBackupRow(
  db: Db,
  site: { id: number; domain: string },
  description: string,
  trigger: string,
  now = Date.now(),
): Promise<number> {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const row = await db
    .insertInto('system_backups')
    .values({
      name: `Site backup ${site.domain} ${stamp}`,
      type: 'full',
      status: 'active',
      size: 0,
      trigger,
      description,
      created_at: now,
      site_id: site.id,
      site_domain: site.domain,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function readBackupRow(db: Db, id: number): Promise<Selectable<SystemBackupTable> | undefined> {
  return db.selectFrom('system_backups').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A site's completed backups, newest first. */
export async function completedSiteBackups(
  db: Db,
  siteId: number,
): Promise<{ id: number; file: string | null }[]> {
  const rows = await db
    .selectFrom('system_backups')
    .select(['id', 'file'])
    .where('site_id', '=', siteId)
    .where('status', '=', 'completed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), file: r.file }));
}

export async function markBackupExpired(db: Db, id: number): Promise<void> {
  await db
    .updateTable('system_backups')
    .set({ status: 'expired', file: null })
    .where('id', '=', id)
    .execute();
}

export async function markSiteBackupCompleted(
  db: Db,
  id: number,
  v: { domain: string; file: string; size: number; sha256: string },
): Promise<void> {
  await db
    .updateTable('system_backups')
    .set({
      status: 'completed',
      site_domain: v.domain,
      file: v.file,
      size: v.size,
      sha256: v.sha256,
      finished_at: Date.now(),
      expires_at: null,
    })
    .where('id', '=', id)
    .execute();
}

export async function markBackupFailed(db: Db, id: number, message: string): Promise<void> {
  await db
    .updateTable('system_backups')
    .set({ status: 'failed', message: message.slice(0, 1000), finished_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** Whether a backup was already made for a schedule slot (`trigger`). */
export async function slotTaken(db: Db, trigger: string): Promise<boolean> {
  const r = await db
    .selectFrom('system_backups')
    .select('id')
    .where('trigger', '=', trigger)
    .executeTakeFirst();
  return r !== undefined;
}

import path from 'node:path';
import type { BackupStatusAnswer, SystemBackup } from '@mailroom/contract/system-admin';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SystemBackupTable } from '../../../db/system.tables.ts';

/** The one owner of `system_backups` (system and site backups): reads, writes, row -> contract. */

type Db = Kysely<Database>;
type BackupRow = Selectable<SystemBackupTable>;

const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** The catalogue's scope of a backup row: `system`, or `site <domain>` for a site's own backup. */
export const scopeOf = (r: {
  site_id: number | null;
  site_domain: string | null;
  app_name?: string | null;
}): string =>
  r.site_id == null
    ? 'system'
    : r.app_name
      ? `app ${r.app_name}`
      : `site ${r.site_domain ?? `#${r.site_id}`}`;

export function toBackup(r: BackupRow, backupDir: string): SystemBackup {
  return {
    id: Number(r.id),
    name: r.name,
    type: r.type === 'incremental' ? 'Incremental' : 'Full',
    status: r.status as SystemBackup['status'],
    size: humanSize(Number(r.size)),
    sizeBytes: Number(r.size),
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at),
    location: r.file ? path.join(backupDir, r.file) : backupDir,
    description: r.description,
    baseId: r.base_id == null ? null : Number(r.base_id),
    message: r.message,
    verifiedAt: iso(r.verified_at),
    verifyResult: r.verify_result,
    scope: scopeOf(r),
  };
}

/** The newest backups (system and sites), newest first, as the catalogue shows them. */
export async function latestBackups(db: Db, backupDir: string, limit: number): Promise<SystemBackup[]> {
  const rows = await db.selectFrom('system_backups').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => toBackup(r, backupDir));
}

/** The latest restore drill's outcome, or null when no backup was ever verified. */
export async function lastVerifiedBackup(db: Db): Promise<BackupStatusAnswer['lastVerified']> {
  const verified = await db
    .selectFrom('system_backups')
    .select(['id', 'verified_at', 'verify_result'])
    .where('verified_at', 'is not', null)
    .orderBy('verified_at', 'desc')
    .executeTakeFirst();
  return verified
    ? {
        at: iso(verified.verified_at)!,
        backupId: Number(verified.id),
        ok: (verified.verify_result ?? '').startsWith('OK'),
        result: verified.verify_result ?? '',
      }
    : null;
}

/** Records the backup (status active) so the list shows it while the job writes it. */
export async function insertBackupRow(
  db: Db,
  type: 'full' | 'incremental',
  description: string,
  trigger: string,
): Promise<number> {
  const now = Date.now();
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const row = await db
    .insertInto('system_backups')
    .values({
      name: `${type === 'full' ? 'Full' : 'Incremental'} backup ${stamp}`,
      type,
      status: 'active',
      size: 0,
      trigger,
      description,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The latest completed system backup made before `id` (what an incremental one builds on). */
export async function latestCompletedSystemBackupBefore(db: Db, id: number): Promise<BackupRow | undefined> {
  return db
    .selectFrom('system_backups')
    .selectAll()
    .where('status', '=', 'completed')
    .where('site_id', 'is', null)
    .where('id', '<', id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Every completed system backup (not the sites' own). */
export async function completedSystemBackups(db: Db): Promise<BackupRow[]> {
  return db
    .selectFrom('system_backups')
    .selectAll()
    .where('status', '=', 'completed')
    .where('site_id', 'is', null)
    .execute();
}

export async function markSystemBackupCompleted(
  db: Db,
  id: number,
  v: {
    type: 'full' | 'incremental';
    name: string;
    baseId: number | null;
    file: string;
    size: number;
    sha256: string;
    expiresAt: number;
  },
): Promise<void> {
  await db
    .updateTable('system_backups')
    .set({
      status: 'completed',
      type: v.type,
      name: v.name,
      base_id: v.baseId,
      file: v.file,
      size: v.size,
      sha256: v.sha256,
      finished_at: Date.now(),
      expires_at: v.expiresAt,
    })
    .where('id', '=', id)
    .execute();
}

/** A restore drill's outcome (`OK: ...` or `FAILED: ...`). */
export async function recordVerification(db: Db, id: number, result: string): Promise<void> {
  await db
    .updateTable('system_backups')
    .set({ verified_at: Date.now(), verify_result: result })
    .where('id', '=', id)
    .execute();
}

/** The id of a completed backup built on top of `id`, if any. */
export async function completedBackupOnTopOf(db: Db, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('system_backups')
    .select('id')
    .where('base_id', '=', id)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export async function deleteBackupRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('system_backups').where('id', '=', id).execute();
}

/** The latest backup that ended (completed or failed), for the backup alert. */
export async function lastEndedBackup(db: Db) {
  return db
    .selectFrom('system_backups')
    .select(['id', 'name', 'status', 'message'])
    .where('status', 'in', ['completed', 'failed'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** A completed backup's name, status and size (undefined: none with this id). */
export async function backupOutcome(db: Db, id: number) {
  return db
    .selectFrom('system_backups')
    .select(['name', 'status', 'size'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The completed backup with this description (a bulk item's mark), if one was made. */
export async function completedBackupDescribed(db: Db, description: string) {
  return db
    .selectFrom('system_backups')
    .select(['id', 'name'])
    .where('description', '=', description)
    .where('status', '=', 'completed')
    .executeTakeFirst();
}

/** Records a site's backup (status active) so the list shows it while the job writes it. */
export async function insertSiteBackupRow(
  db: Db,
  site: { id: number; domain: string; app?: { id: number; name: string } },
  description: string,
  trigger: string,
  now = Date.now(),
): Promise<number> {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const row = await db
    .insertInto('system_backups')
    .values({
      name: site.app ? `App backup ${site.app.name} ${stamp}` : `Site backup ${site.domain} ${stamp}`,
      type: 'full',
      status: 'active',
      size: 0,
      trigger,
      description,
      created_at: now,
      site_id: site.id,
      site_domain: site.domain,
      app_id: site.app?.id ?? null,
      app_name: site.app?.name ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function readBackupRow(db: Db, id: number): Promise<BackupRow | undefined> {
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

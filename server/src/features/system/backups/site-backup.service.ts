import path from 'node:path';
import type { Selectable } from 'kysely';
import type { SystemBackupTable } from '../../../db/system.tables.ts';
import { makeFolder, sizeOf } from '../../../host/data-files.ts';
import { removeTree } from '../../../host/disk-files.ts';
import type { JobContext, JobOutcome } from '../system-job.types.ts';
import { siteBackupSpecs } from './backup-source.registry.ts';
import { backupLabel, restoredLabel } from './app-backup-scope.rules.ts';
import {
  ARCHIVE_FORMAT,
  appliedMigrations,
  countEntries,
  type Manifest,
  packArchive,
  sha256File,
  unpackArchive,
} from './backup-archive.service.ts';
import { archiveSystemPaths, HOST_PART, restoreHostFiles } from './backup-host-files.service.ts';
import { type BackupEnv, humanSize } from './backup.service.ts';
import {
  completedSiteBackups,
  markBackupExpired,
  markBackupFailed,
  markSiteBackupCompleted,
  readBackupRow,
} from './backup.repository.ts';

/** The job that writes one site's backup (its document root, owners and modes kept). */
export const SITE_BACKUP_JOB = 'system.backup.site';

/**
 * A site's retention: its newest `keep` completed backups stay, older ones of the same site lose
 * their archive and are marked expired. Never touches another site's backups or the system ones.
 */
export async function pruneSiteBackups(env: BackupEnv, siteId: number, keep: number): Promise<number> {
  const db = env.database.db;
  const rows = await completedSiteBackups(db, siteId);
  let n = 0;
  for (const r of rows.slice(Math.max(1, keep))) {
    if (r.file) await removeTree(path.join(env.backupDir, r.file));
    await markBackupExpired(db, r.id);
    n++;
  }
  return n;
}

/**
 * Writes a site's backup: an archive in the system backups' format and folder whose only part is
 * host.tar.gz of the site's document root (paths relative to the host root, owners and modes
 * kept); then the site's own retention. One backup at a time across every process (the same lock
 * as the system backups).
 */
export function siteBackupJob(env: BackupEnv) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { backupId } = input as { backupId: number };
    const db = env.database.db;
    return env.locks.withLock(
      'system.backup',
      async () => {
        const row = await readBackupRow(db, backupId);
        if (!row) throw new Error(`Backup ${backupId} was not found.`);
        const staging = path.join(env.backupDir, '.backup-staging', String(backupId));
        await removeTree(staging);
        await makeFolder(staging);
        try {
          if (row.site_id == null || !env.host) throw new Error(`Backup ${backupId} is not a site backup.`);
          const site = (await siteBackupSpecs(env.host)).find((s) => s.id === Number(row.site_id));
          if (!site)
            throw new Error(
              `The site ${row.site_domain} no longer exists or no longer has Enable Backup: nothing to back up.`,
            );
          ctx.progress({ phase: `Archiving ${backupLabel(site)}`, processed: 0, total: 2 });
          const entries = await archiveSystemPaths(env.host, staging, ctx.signal, [site.documentRoot]);
          if (entries === null)
            throw new Error(
              `The ${site.app ? 'data folder' : 'document root'} ${site.documentRoot} is missing.`,
            );
          await ctx.checkpoint();
          ctx.progress({ phase: 'Writing the archive', processed: 1, total: 2 });
          const manifest: Manifest = {
            format: ARCHIVE_FORMAT,
            id: backupId,
            type: 'full',
            baseId: null,
            createdAt: new Date(Number(row.created_at)).toISOString(),
            dialect: env.database.dialect,
            migrations: await appliedMigrations(db),
            tables: {},
            fileEntries: 0,
            hostFiles: entries,
            site: { id: site.id, domain: site.domain, documentRoot: site.documentRoot },
            ...(site.app ? { app: site.app } : {}),
            parts: { [HOST_PART]: await sha256File(path.join(staging, HOST_PART)) },
          };
          const file = site.app
            ? `backup-${backupId}-app-${site.app.name}.tar`
            : `backup-${backupId}-site-${site.domain}.tar`;
          await packArchive(staging, manifest, path.join(env.backupDir, file));
          const size = await sizeOf(path.join(env.backupDir, file));
          await markSiteBackupCompleted(db, backupId, {
            domain: site.domain,
            file,
            size,
            sha256: await sha256File(path.join(env.backupDir, file)),
          });
          const expired = await pruneSiteBackups(env, site.id, site.retention);
          ctx.progress({ phase: 'Done', processed: 2, total: 2 });
          return {
            result: { backupId, file, size, site: site.domain, hostFiles: entries, expired },
            summary: `Backup of ${backupLabel(site)} written: ${humanSize(size)}, ${entries} files and folders${expired ? `; ${expired} older backup${expired === 1 ? '' : 's'} of this ${site.app ? 'app' : 'site'} expired (keeps ${site.retention})` : ''}`,
          };
        } catch (err) {
          await markBackupFailed(db, backupId, (err as Error).message);
          throw err;
        } finally {
          await removeTree(staging);
        }
      },
      { waitMs: 60 * 60_000 },
    );
  };
}

/**
 * The restore of a site's backup (through the same restore route and job as the system backups):
 * checks the archive, then puts the site's files back under the host root with their archived
 * owners and modes. The database, the data folder and the daemons are left as they are.
 */
export async function restoreSiteBackup(
  env: BackupEnv,
  row: Selectable<SystemBackupTable>,
  scratch: string,
  ctx: JobContext,
): Promise<JobOutcome> {
  if (!env.host) throw new Error('No host to restore the site files into.');
  ctx.progress({ phase: `Checking ${row.name}`, processed: 0, total: 2 });
  const dir = path.join(scratch, `part-${row.id}`);
  const manifest = await unpackArchive(path.join(env.backupDir, row.file!), dir, row.sha256);
  const n = await countEntries(path.join(dir, HOST_PART));
  if (n !== manifest.hostFiles)
    throw new Error(
      `The backup archive is damaged: its site files list ${n} entries, ${manifest.hostFiles} were recorded. It cannot be restored; choose another backup.`,
    );
  ctx.progress({ phase: `Restoring the files of ${restoredLabel(row)}`, processed: 1, total: 2 });
  const written = await restoreHostFiles(env.host, dir, scratch);
  ctx.progress({ phase: 'Done', processed: 2, total: 2 });
  return {
    result: { backupId: Number(row.id), site: row.site_domain, files: written.length, hostFiles: written },
    summary: `Restored the files of ${restoredLabel(row)} from backup ${row.id} (${n} entries checked): ${written.length} files written with their owners; nothing else touched`,
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SiteBackup } from '../vhosts/vhost.service.ts';
import { allApps, rowConfig } from './application.repository.ts';
import { appDataDir } from './app.layout.ts';

/**
 * The applications' part of the backups (issue 20): an application's data folder (appDataDir) is
 * what gets backed up for it, under its own Enable Backup, Backup Frequency and Backup Retention,
 * in place of its virtual host's document root (the deployment path: release folders, rebuilt from
 * git at any time, and logs). The system backups' machinery for sites does the rest (same job,
 * schedule, retention and restore); the rows say `app <name>`.
 */
export interface AppBackup extends SiteBackup {
  app: { id: number; name: string };
}

export async function appBackupSpecs(
  db: Kysely<Database>,
): Promise<{ vhostIds: Set<number>; backups: AppBackup[] }> {
  const rows = await allApps(db);
  const backups: AppBackup[] = [];
  for (const row of rows) {
    const c = rowConfig(row);
    if (!c.enableBackup) continue;
    backups.push({
      id: Number(row.vhost_id),
      domain: c.domain,
      documentRoot: appDataDir(c),
      frequency: c.backupFrequency,
      retention: c.backupRetention,
      app: { id: Number(row.id), name: c.name },
    });
  }
  return { vhostIds: new Set(rows.map((r) => Number(r.vhost_id))), backups };
}

/** The sites' backups with each application's virtual host replaced by the application's data. */
export async function withAppBackups(
  db: Kysely<Database>,
  sites: SiteBackup[],
): Promise<(SiteBackup | AppBackup)[]> {
  const apps = await appBackupSpecs(db);
  return [...sites.filter((s) => !apps.vhostIds.has(s.id)), ...apps.backups];
}

/** The same for the system backups' paths: app hosts' document roots out, app data folders in. */
export async function withAppBackupPaths(db: Kysely<Database>, sites: SiteBackup[]): Promise<string[]> {
  return (await withAppBackups(db, sites)).map((s) => s.documentRoot);
}

import type { Host } from '../../../host/host.ts';

/**
 * Other areas' files that belong in the system backups (the web area's document roots of the sites
 * with Enable Backup): each source names system paths under the host root, archived with the
 * daemon files in host.tar.gz by the same backup job, on the same schedule and retention, and put
 * back by the same restore. (In local mode the host root lies inside the data folder, whose archive
 * already holds them.) Areas register; this area never reaches into theirs.
 */
export type BackupSource = () => Promise<string[]>;

const registries = new WeakMap<object, Map<string, BackupSource>>();

export function registerBackupSource(host: Host, name: string, source: BackupSource): void {
  let m = registries.get(host);
  if (!m) {
    m = new Map();
    registries.set(host, m);
  }
  m.set(name, source);
}

/** Every registered source's paths (sorted, once each); a source that fails is left out. */
export async function backupSourcePaths(host: Host): Promise<string[]> {
  const out = new Set<string>();
  for (const source of registries.get(host)?.values() ?? []) {
    const paths = await source().catch(() => [] as string[]);
    for (const p of paths) out.add(p);
  }
  return [...out].sort();
}

/**
 * A site whose files get backups of their own (a virtual host with Enable Backup): made on its own
 * schedule (`frequency`, at the system backups' hour and time zone), kept `retention` at a time,
 * listed and restored with the system backups. Registered by the web area, read by this one.
 */
export interface SiteBackupSpec {
  id: number;
  domain: string;
  /** The document root (a system path under the host root). */
  documentRoot: string;
  frequency: 'daily' | 'weekly' | 'monthly' | 'never';
  /** How many of this site's backups are kept (the newest ones). */
  retention: number;
  /**
   * Set when the site is a web application's host: then `documentRoot` is the application's data
   * folder and the backups are listed as `app <name>` (app-backup-scope.rules.ts).
   */
  app?: { id: number; name: string };
}
export type SiteBackupSource = () => Promise<SiteBackupSpec[]>;

const siteRegistries = new WeakMap<object, SiteBackupSource>();

export function registerSiteBackups(host: Host, source: SiteBackupSource): void {
  siteRegistries.set(host, source);
}

/** The sites with Enable Backup (none when no area registered them). */
export async function siteBackupSpecs(host: Host | undefined): Promise<SiteBackupSpec[]> {
  const source = host ? siteRegistries.get(host) : undefined;
  return source ? source() : [];
}

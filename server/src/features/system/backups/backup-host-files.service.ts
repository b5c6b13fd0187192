import path from 'node:path';
import { copyChangedTree } from '../../../host/archive.ts';
import { makeFolder } from '../../../host/data-files.ts';
import { infoOf } from '../../../host/disk-files.ts';
import type { Host } from '../../../host/host.ts';
import type { DaemonName } from '../../../host/service-control.ts';
import { runCommand } from '../../../host/run-command.ts';
import { countEntries, DamagedArchive } from './backup-archive.service.ts';

/**
 * The daemon configuration and keys Mailroom renders or keeps outside its data folder (system
 * paths, mapped under the host root): what a backup must hold besides the database and the data
 * folder so that a restored server has its DKIM keys, TLS key and certificate and the exact files
 * the daemons ran with. In local mode the host root lies inside the data folder and these are
 * already in files.tar.gz. (The lists of the mail and DNS areas, named here so this area does not
 * reach into theirs: mail-paths.ts, rspamd.renderer.ts, bind-layout.ts.)
 */
export const MANAGED_HOST_PATHS = [
  '/etc/postfix/main.cf',
  '/etc/postfix/master.cf',
  '/etc/postfix/mailroom',
  '/etc/dovecot/dovecot.conf',
  '/etc/dovecot/conf.d/90-mailroom.conf',
  '/etc/dovecot/conf.d/91-mailroom-services.conf',
  '/etc/dovecot/dovecot-sql.conf.ext',
  '/etc/dovecot/dovecot-dict-sql.conf.ext',
  '/etc/bind/mailroom',
  '/etc/rspamd/local.d',
  '/etc/rspamd/mailroom',
  '/var/lib/rspamd/dkim',
  '/etc/mailroom/tls',
];

export const HOST_PART = 'host.tar.gz';

/**
 * What the daemons write while they run, under the host root: sockets and pid files (`/run`),
 * Postfix's queue with its `public/` and `private/` sockets and its `master.lock`, Dovecot's and
 * rspamd's state, named's working folder, and every log. A restore never touches them (a running
 * stack keeps its sockets, locks and queue; logs are never rewound), and a backup does not archive
 * the ones below that hold nothing else (`ARCHIVE_KEEPS` names what must still be archived).
 */
export const RUNTIME_HOST_PATHS = [
  '/run',
  '/var/run',
  '/var/log',
  '/var/spool/postfix',
  '/var/lib/postfix',
  '/var/lib/dovecot',
  '/var/cache/bind',
  '/var/lib/rspamd',
];

/** Folders below a runtime path that are configuration all the same (the DKIM keys), restored as such. */
export const RUNTIME_EXCEPTIONS = ['/var/lib/rspamd/dkim'];

/** The daemon each managed path belongs to: whoever must read it again when a restore puts it back. */
export const DAEMON_OF_PATH: [prefix: string, daemons: DaemonName[]][] = [
  ['/etc/postfix', ['postfix']],
  ['/etc/dovecot', ['dovecot']],
  ['/var/vmail', ['dovecot']],
  ['/etc/bind', ['named']],
  ['/etc/rspamd', ['rspamd']],
  ['/var/lib/rspamd/dkim', ['rspamd']],
  ['/etc/mailroom/tls', ['postfix', 'dovecot']],
];

const under = (p: string, prefix: string) => p === prefix || p.startsWith(prefix + '/');

/** Whether a system path (`/var/log/mail.log`) is daemon runtime state a restore leaves alone. */
export function isRuntimePath(systemPath: string): boolean {
  if (RUNTIME_EXCEPTIONS.some((e) => under(systemPath, e))) return false;
  // The folders above an exception are walked into, not skipped whole.
  if (RUNTIME_EXCEPTIONS.some((e) => under(e, systemPath) && e !== systemPath)) return false;
  return RUNTIME_HOST_PATHS.some((r) => under(systemPath, r));
}

/** The runtime paths a backup leaves out whole (none of them holds an exception). */
export const ARCHIVE_SKIPS = RUNTIME_HOST_PATHS.filter((r) => !RUNTIME_EXCEPTIONS.some((e) => under(e, r)));

/** The daemons whose files are among `systemPaths` (sorted, once each). */
export function daemonsOfPaths(systemPaths: Iterable<string>): DaemonName[] {
  const out = new Set<DaemonName>();
  for (const p of systemPaths)
    for (const [prefix, daemons] of DAEMON_OF_PATH) if (under(p, prefix)) daemons.forEach((d) => out.add(d));
  return [...out].sort();
}

/** Whether the host root is outside the data folder (system mode, or a separate MAILROOM_ROOT). */
export function hostOutsideData(host: Host, dataDir: string): boolean {
  const rel = path.relative(path.resolve(dataDir), host.root);
  return rel.startsWith('..') || path.isAbsolute(rel);
}

/** The host root's path inside the data folder (`root`), or null when it lies outside (or is it). */
export function hostRelative(host: Host, dataDir: string): string | null {
  if (hostOutsideData(host, dataDir)) return null;
  const rel = path.relative(path.resolve(dataDir), host.root).split(path.sep).join('/');
  return rel || null;
}

/**
 * Writes host.tar.gz (paths relative to the host root, owners and modes kept) into `staging`;
 * answers its entry count, or null when nothing is there to archive.
 */
export async function archiveHostFiles(
  host: Host,
  staging: string,
  signal: AbortSignal,
  extra: readonly string[] = [],
): Promise<number | null> {
  return archiveSystemPaths(host, staging, signal, [...MANAGED_HOST_PATHS, ...extra]);
}

/**
 * Writes host.tar.gz of the given system paths only (those present), relative to the host root
 * with owners and modes kept: the daemon files above, or one site's document root (a site backup).
 * Answers its entry count, or null when none of them is there.
 */
export async function archiveSystemPaths(
  host: Host,
  staging: string,
  signal: AbortSignal,
  paths: readonly string[],
): Promise<number | null> {
  const present: string[] = [];
  for (const p of paths) {
    const st = await infoOf(host.path(p));
    if (st && (st.isFile() || st.isDirectory())) present.push(path.relative(host.root, host.path(p)));
  }
  if (!present.length) return null;
  const file = path.join(staging, HOST_PART);
  // Exit 1: a file changed while it was read; the archive is still good.
  await runCommand('tar', ['--create', '--gzip', '--file', file, '-C', host.root, '--', ...present], {
    signal,
    okCodes: [0, 1],
  });
  return countEntries(file);
}

/**
 * Puts the archived host files back under the host root: each file whose content or mode differs
 * is written beside its target and renamed into place (owner kept when Mailroom runs as root).
 * Files that are there but not in the archive stay. Answers the system paths written.
 */
export async function restoreHostFiles(host: Host, partDir: string, scratch: string): Promise<string[]> {
  const into = path.join(scratch, 'host');
  await makeFolder(into);
  try {
    await runCommand('tar', ['--extract', '--gzip', '--file', path.join(partDir, HOST_PART), '-C', into]);
  } catch (err) {
    throw new DamagedArchive(
      `its daemon files cannot be extracted (${(err as Error).message.split('\n').pop()})`,
    );
  }
  const written = await copyChangedTree(into, (r) => host.path('/' + r));
  return written.map((r) => '/' + r);
}

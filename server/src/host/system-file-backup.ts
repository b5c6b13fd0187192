import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * What the first line of every file Mailroom writes outright says (`# Managed by Mailroom…`,
 * `// Rendered by Mailroom…`, `; Zone x: rendered by Mailroom…`). A file without it is somebody
 * else's: Debian's main.cf, master.cf, dovecot.conf, an administrator's own file.
 */
const MAILROOM_MARK = /\b(managed|rendered) by Mailroom\b/i;

export function isMailroomFile(content: string): boolean {
  const firstLine = content.slice(0, content.indexOf('\n') === -1 ? undefined : content.indexOf('\n'));
  return MAILROOM_MARK.test(firstLine);
}

/** `2026-11-22T20-05-01.123Z`: sorts by time, no colons (safe in any file name). */
const stampOf = (d: Date) => d.toISOString().replace(/:/g, '-');

async function backedUpBefore(backupDir: string, rel: string): Promise<boolean> {
  let stamps: string[];
  try {
    stamps = await fs.readdir(backupDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  for (const s of stamps) {
    try {
      await fs.access(path.join(backupDir, s, rel));
      return true;
    } catch {
      /* not in this one */
    }
  }
  return false;
}

/**
 * Before Mailroom replaces files it did not write (the first time only), copies each one to
 * `<backupDir>/<timestamp>/<path under the root>`, e.g.
 * `data/backups/system-files/2026-11-22T20-05-01.123Z/etc/postfix/main.cf`, keeping its mode.
 * Files that do not exist yet, files carrying Mailroom's mark and files already backed up once
 * are left alone. The folder is private to Mailroom (0700): such files can hold passwords.
 * Answers the backup copies written.
 */
export async function backupReplacedFiles(
  backupDir: string,
  root: string,
  targets: string[],
  now: Date = new Date(),
): Promise<string[]> {
  const written: string[] = [];
  const stampDir = path.join(backupDir, stampOf(now));
  for (const target of targets) {
    let content: Buffer;
    let mode: number;
    try {
      [content, mode] = await Promise.all([
        fs.readFile(target),
        fs.stat(target).then((s) => s.mode & 0o7777),
      ]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (isMailroomFile(content.toString('utf8', 0, Math.min(content.length, 512)))) continue;
    const rel = path.relative(root, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (await backedUpBefore(backupDir, rel)) continue;
    const copy = path.join(stampDir, rel);
    await fs.mkdir(backupDir, { recursive: true, mode: 0o700 });
    await fs.mkdir(path.dirname(copy), { recursive: true, mode: 0o700 });
    const tmp = `${copy}.${process.pid}.tmp`;
    await fs.writeFile(tmp, content, { mode });
    await fs.chmod(tmp, mode);
    await fs.rename(tmp, copy);
    written.push(copy);
  }
  return written;
}

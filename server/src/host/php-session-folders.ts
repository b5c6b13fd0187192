import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Host } from './host.ts';

/**
 * A site's PHP session folder: made when missing, owned by the site's user and readable by it
 * alone (0700), so neither Apache nor another site's pool reads its sessions. Without a site user
 * (Mailroom not root) it belongs to Mailroom's user, which runs the pools then.
 */
export async function ensureSessionFolder(
  host: Host,
  systemPath: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const dir = host.path(systemPath);
  // The folders above are passed through by every site's user (made 0755 when missing).
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (owner) await fs.chown(dir, owner.uid, owner.gid);
  await fs.chmod(dir, 0o700);
}

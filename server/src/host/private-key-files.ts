import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Private key files a daemon reads (DKIM keys for rspamd). As root the key belongs to the
 * reader's user with mode 0600; otherwise it stays the writer's with mode 0640 and the reader's
 * group when the writer may set it (a member of that group, or a setgid key folder), else 0600
 * (the reader run as the same user).
 */

export interface UserIds {
  uid: number;
  gid: number;
}

/** A user's uid and gid from the machine's own user database, or null when absent. */
export async function userIds(user: string): Promise<UserIds | null> {
  try {
    const passwd = await fs.readFile('/etc/passwd', 'utf8');
    for (const line of passwd.split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === user && uid && gid) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    /* no user database: nothing to hand over */
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/** Gives a file or folder to the reader as far as this process may. */
async function handOver(
  reader: string,
  target: string,
  mode: { root: number; group: number; own: number },
): Promise<void> {
  const ids = await userIds(reader);
  if (ids && isRoot()) {
    await fs.chown(target, ids.uid, ids.gid);
    await fs.chmod(target, mode.root);
    return;
  }
  if (ids) {
    try {
      await fs.chown(target, process.getuid?.() ?? -1, ids.gid);
      await fs.chmod(target, mode.group);
      return;
    } catch {
      /* not a member of the reader's group */
    }
  }
  await fs.chmod(target, mode.own);
}

/** Writes one private key atomically, owned and moded for `reader` before it takes its name. */
export async function writePrivateKeyFile(target: string, pem: string, reader: string): Promise<void> {
  const dir = path.dirname(target);
  // Parents as usual (others must walk through them); only the key folder itself is closed.
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const created = await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  // A folder the operator prepared (say mailroom:_rspamd 2750) is left as it is: changing its mode
  // as a non-member of its group would drop the setgid bit that gives new keys the reader's group.
  if (created !== undefined || isRoot())
    await handOver(reader, dir, { root: 0o750, group: 0o2750, own: 0o700 });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(pem, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await handOver(reader, tmp, { root: 0o600, group: 0o640, own: 0o600 });
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Whether a file is there: true/false, or null when this process may not even look. */
export async function filePresence(file: string): Promise<boolean | null> {
  try {
    await fs.stat(file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? false : null;
  }
}

/** Removes a file; one already gone is fine. */
export async function removeFileIfAny(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Host } from '../../host/host.ts';
import { RSPAMD_PATHS, RSPAMD_USER } from './rspamd.renderer.ts';

/**
 * DKIM private keys live only in files the signer reads: never in the database, which the mail
 * daemons can read (Postfix and Dovecot open the SQLite file; on PostgreSQL their role could be
 * granted too much). As root the key belongs to the signer's user (`_rspamd`) with mode 0600;
 * otherwise it stays the writer's with mode 0640 and the signer's group when the writer may set
 * it (a member of `_rspamd`, or a setgid key folder), else 0600 (rspamd run as the same user).
 */

interface Ids {
  uid: number;
  gid: number;
}

/** The signer's uid and gid from the machine's own user database, or null when absent. */
export async function signerIds(): Promise<Ids | null> {
  try {
    const passwd = await fs.readFile('/etc/passwd', 'utf8');
    for (const line of passwd.split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === RSPAMD_USER && uid && gid) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    /* no user database: nothing to hand over */
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/** Gives a file or folder to the signer as far as this process may. */
async function handOver(target: string, mode: { root: number; group: number; own: number }): Promise<void> {
  const ids = await signerIds();
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
      /* not a member of the signer's group */
    }
  }
  await fs.chmod(target, mode.own);
}

export const dkimKeyPath = (host: Host, domain: string, selector: string) =>
  host.path(RSPAMD_PATHS.dkimKey(domain, selector));

/** Writes one private key atomically, owned and moded for the signer before it takes its name. */
export async function writeDkimKeyFile(
  host: Host,
  domain: string,
  selector: string,
  pem: string,
): Promise<void> {
  const target = dkimKeyPath(host, domain, selector);
  const dir = path.dirname(target);
  // Parents as usual (others must walk through them); only the key folder itself is closed.
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const created = await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  // A folder the operator prepared (say mailroom:_rspamd 2750) is left as it is: changing its mode
  // as a non-member of its group would drop the setgid bit that gives new keys the signer's group.
  if (created !== undefined || isRoot()) await handOver(dir, { root: 0o750, group: 0o2750, own: 0o700 });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(pem, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await handOver(tmp, { root: 0o600, group: 0o640, own: 0o600 });
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Whether the key file is there: true/false, or null when this process may not even look. */
export async function dkimKeyFileExists(
  host: Host,
  domain: string,
  selector: string,
): Promise<boolean | null> {
  try {
    await fs.stat(dkimKeyPath(host, domain, selector));
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? false : null;
  }
}

export async function removeDkimKeyFile(host: Host, domain: string, selector: string): Promise<void> {
  await fs.rm(dkimKeyPath(host, domain, selector), { force: true });
}

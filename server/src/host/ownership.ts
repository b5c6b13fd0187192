import { promises as fs, type Stats } from 'node:fs';

/** The owners and modes of machine paths (setup of the folders and files daemons share). */

/** What `stat` says of a path (links followed), or null when it cannot be read. */
export async function statOf(p: string): Promise<Stats | null> {
  try {
    return await fs.stat(p);
  } catch {
    return null;
  }
}

export async function setOwner(p: string, uid: number, gid: number): Promise<void> {
  await fs.chown(p, uid, gid);
}

export async function setMode(p: string, mode: number): Promise<void> {
  await fs.chmod(p, mode);
}

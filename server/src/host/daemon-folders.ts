import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UserIds } from './private-key-files.ts';

/**
 * The first folder from `dir` up to `/` that a daemon running as `uid` may not pass through
 * (not its own and closed to others), or null when every one lets it.
 */
export async function firstClosedFolder(dir: string, uid: number): Promise<string | null> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = await fs.stat(d);
    if (!(st.mode & 0o001) && st.uid !== uid) return d;
    if (d === path.dirname(d)) return null;
  }
}

/** Makes a folder a daemon writes (0750, parents as usual), given to its user when `ids` are set. */
export async function makeDaemonFolder(dir: string, ids: UserIds | null): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  if (ids) await fs.chown(dir, ids.uid, ids.gid);
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { exec, isRoot } from './app-process-internals.ts';
import type { RunAs } from './app-process-user.ts';

/** Gives a folder tree to the app's user (root only). */
export async function chownTree(dir: string, runAs: RunAs): Promise<void> {
  if (!runAs || !isRoot()) return;
  await exec('chown', ['-R', '--no-dereference', `${runAs.uid}:${runAs.gid}`, '--', dir]);
}

/** A folder and its parents, traversable by other users (the app user, Apache). */
export async function ensureAppFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
}

export async function removeTree(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

export async function folderExists(dir: string): Promise<boolean> {
  return fs.stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function fileExists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The first file named `name` under `dir` (breadth first, `maxDepth` folders down), relative to `dir`. */
export async function findFileBelow(dir: string, name: string, maxDepth: number): Promise<string | null> {
  let level = [''];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (e.isFile() && e.name === name) return path.join(rel, e.name);
        if (e.isDirectory()) next.push(path.join(rel, e.name));
      }
    }
    level = next.sort();
  }
  return null;
}

/** Bytes used by the files under `dir` (symbolic links not followed). */
export async function treeSize(dir: string): Promise<number> {
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else {
        const s = await fs.lstat(p).catch(() => null);
        if (s) total += s.size;
      }
    }
  };
  await walk(dir);
  return total;
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunAs } from './app-process.ts';

/**
 * A PHP application's data folder (`<Deployment Path>/data`): the folders kept across releases
 * and its configuration file live there, and each release links to them. Paths are real paths
 * (the Host's mapping already applied).
 */

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

async function lstatOrNull(p: string) {
  return fs.lstat(p).catch(() => null);
}

async function own(p: string, runAs: RunAs): Promise<void> {
  if (runAs && isRoot()) await fs.lchown(p, runAs.uid, runAs.gid);
}

/** Makes a folder and its missing parents below `base`, each owned by the app's user. */
async function mkdirOwned(base: string, rel: string, runAs: RunAs): Promise<string> {
  let cur = base;
  for (const part of rel.split('/').filter(Boolean)) {
    cur = path.join(cur, part);
    if (!(await lstatOrNull(cur))) {
      await fs.mkdir(cur, { mode: 0o755 });
      await own(cur, runAs);
    }
  }
  return cur;
}

/** Gives a tree to the app's user (links themselves, never what they point at). */
async function ownTree(p: string, runAs: RunAs): Promise<void> {
  if (!runAs || !isRoot()) return;
  const s = await lstatOrNull(p);
  if (!s) return;
  await fs.lchown(p, runAs.uid, runAs.gid);
  if (s.isDirectory()) for (const e of await fs.readdir(p)) await ownTree(path.join(p, e), runAs);
}

/**
 * Links a kept folder into a release: `data/<rel>` is made once (seeded with what the release
 * has there, never overwriting what is kept), the release's own folder is replaced by a link to it.
 * Answers what it did, for the deploy log.
 */
export async function linkKeptFolder(
  release: string,
  shared: string,
  rel: string,
  runAs: RunAs,
): Promise<string> {
  const kept = path.join(shared, rel);
  const had = await lstatOrNull(kept);
  await mkdirOwned(shared, rel, runAs);
  const inRelease = path.join(release, rel);
  const s = await lstatOrNull(inRelease);
  let seeded = false;
  if (s?.isDirectory()) {
    await fs.cp(inRelease, kept, { recursive: true, force: false, errorOnExist: false });
    await ownTree(kept, runAs);
    seeded = !had;
    await fs.rm(inRelease, { recursive: true, force: true });
  } else if (s) await fs.rm(inRelease, { force: true });
  await mkdirOwned(release, path.dirname(rel), runAs);
  await fs.symlink(kept, inRelease);
  await own(inRelease, runAs);
  return `${rel}/ -> ${kept}${had ? '' : seeded ? ' (made, seeded from the repository)' : ' (made)'}`;
}

/**
 * The configuration file kept across releases: the repository's own file wins (nothing kept);
 * else `data/<file>` is made once by `make` from the repository's sample (mode 0600, the app's
 * user), and the release links to it. Answers what happened; throws `missing` when neither the
 * file, a kept one nor the sample exists.
 */
export async function linkKeptConfig(
  release: string,
  shared: string,
  file: string,
  sample: string,
  runAs: RunAs,
  make: (sampleText: string) => string,
  missing: () => Error,
): Promise<{ kept: string; made: boolean; own: boolean }> {
  const inRelease = path.join(release, file);
  const kept = path.join(shared, file);
  const s = await lstatOrNull(inRelease);
  if (s?.isFile()) return { kept: inRelease, made: false, own: true };
  let made = false;
  if (!(await lstatOrNull(kept))) {
    const text = await fs.readFile(path.join(release, sample), 'utf8').catch(() => null);
    if (text === null) throw missing();
    await mkdirOwned(shared, path.dirname(file), runAs);
    const tmp = `${kept}.${process.pid}.tmp`;
    await fs.writeFile(tmp, make(text), { mode: 0o600 });
    await own(tmp, runAs);
    await fs.rename(tmp, kept);
    made = true;
  }
  if (s) await fs.rm(inRelease, { force: true });
  await mkdirOwned(release, path.dirname(file), runAs);
  await fs.symlink(kept, inRelease);
  await own(inRelease, runAs);
  return { kept, made, own: false };
}

/** The data folder itself (the app's user, readable by Apache for the files it serves). */
export async function ensureDataFolder(shared: string, runAs: RunAs): Promise<void> {
  await fs.mkdir(shared, { recursive: true, mode: 0o755 });
  await own(shared, runAs);
}

import { type Stats, promises as fs } from 'node:fs';
import path from 'node:path';

export interface TreeSyncOptions {
  /** Names at the top of the target that are neither written nor removed. */
  excluded: Set<string>;
  /** An entry (path relative to the target, `/`-separated) left alone: neither written nor removed. */
  leaveAlone(rel: string): boolean;
  /** A folder with entries left alone somewhere below it: walked into, never removed whole. */
  holdsLeftAlone(rel: string): boolean;
  /** A file written with the time of the sync (a daemon reloads only newer files) instead of its own. */
  freshTime(rel: string): boolean;
  /** Running as root: owners are set as in the source. */
  asRoot: boolean;
}

/**
 * Makes the folder `to` hold what `from` holds (a restore's extracted archive): entries missing
 * from `from` are removed, files and links written beside their target and renamed into place
 * with the source's mode, owner (as root) and time; folders get the source's mode and owner. A
 * file already the same (size, mode, owner, and time, or content for `freshTime` files) is left
 * alone. Answers the count and the relative paths written or removed.
 */
export async function syncTree(
  from: string,
  to: string,
  opts: TreeSyncOptions,
): Promise<{ changed: number; paths: string[] }> {
  const paths: string[] = [];
  const owner = async (file: string, st: Stats) => {
    if (opts.asRoot) await fs.lchown(file, st.uid, st.gid);
  };
  const walk = async (src: string | null, dst: string, rel: string): Promise<void> => {
    const wanted = new Map(
      src ? (await fs.readdir(src, { withFileTypes: true })).map((e) => [e.name, e]) : [],
    );
    const present = await fs.readdir(dst, { withFileTypes: true }).catch(() => []);
    const relOf = (name: string) => (rel ? `${rel}/${name}` : name);
    for (const e of present) {
      const r = relOf(e.name);
      if ((!rel && opts.excluded.has(e.name)) || opts.leaveAlone(r)) continue;
      const w = wanted.get(e.name);
      if (w && w.isDirectory() === e.isDirectory()) continue;
      if (e.isDirectory() && opts.holdsLeftAlone(r)) {
        // Not in the source, but what is left alone lives below: only the rest goes.
        if (!w) await walk(null, path.join(dst, e.name), r);
        continue;
      }
      await fs.rm(path.join(dst, e.name), { recursive: true, force: true });
      paths.push(r);
    }
    for (const [name, e] of wanted) {
      const r = relOf(name);
      if ((!rel && opts.excluded.has(name)) || opts.leaveAlone(r)) continue;
      const source = path.join(src!, name);
      const target = path.join(dst, name);
      const st = await fs.lstat(source);
      if (e.isDirectory()) {
        await fs.mkdir(target, { recursive: true });
        await walk(source, target, r);
        await fs.chmod(target, st.mode & 0o7777);
        await owner(target, st);
      } else if (e.isSymbolicLink()) {
        const link = await fs.readlink(source);
        if ((await fs.readlink(target).catch(() => null)) === link) continue;
        await fs.rm(target, { recursive: true, force: true });
        await fs.symlink(link, target);
        await owner(target, st);
        paths.push(r);
      } else if (e.isFile()) {
        const fresh = opts.freshTime(r);
        const now = await fs.lstat(target).catch(() => null);
        const same =
          now?.isFile() &&
          now.size === st.size &&
          (now.mode & 0o7777) === (st.mode & 0o7777) &&
          (!opts.asRoot || (now.uid === st.uid && now.gid === st.gid)) &&
          (fresh
            ? (await fs.readFile(target)).equals(await fs.readFile(source))
            : Math.trunc(now.mtimeMs / 1000) === Math.trunc(st.mtimeMs / 1000));
        if (same) continue;
        const tmp = `${target}.restore-tmp`;
        await fs.copyFile(source, tmp);
        await fs.chmod(tmp, st.mode & 0o7777);
        await owner(tmp, st);
        if (!fresh) await fs.utimes(tmp, st.atime, st.mtime);
        await fs.rename(tmp, target);
        paths.push(r);
      }
    }
  };
  await walk(from, to, '');
  return { changed: paths.length, paths };
}

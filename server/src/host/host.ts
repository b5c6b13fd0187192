import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { type BoundedRunOptions, boundedRun, type RunResult } from './bounded-run.ts';
import { StagedSet, type StagedFile } from './staged-set.ts';

export type { StagedFile } from './staged-set.ts';

export type { RunResult } from './bounded-run.ts';

export interface CheckResult {
  ok: boolean;
  output: string;
}

/**
 * The only place that touches the machine. Paths are system paths (`/etc/postfix/main.cf`)
 * mapped under `root` (the data folder's `root/` by default, `/` in system mode).
 */
export class Host {
  constructor(
    readonly root: string,
    readonly reloadEnabled: boolean,
    /** Where files Mailroom takes over are copied before their first replacement (null: no copies). */
    readonly backupDir: string | null = null,
  ) {}

  /** Maps a system path like `/etc/bind/named.conf` to its place under the host root. */
  path(systemPath: string): string {
    const rel = path.normalize(systemPath).replace(/^(\.\.(\/|$))+/, '');
    const resolved = path.resolve(this.root, '.' + path.sep + rel);
    if (
      resolved !== this.root &&
      !resolved.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep)
    ) {
      throw new Error(`path escapes the host root: ${systemPath}`);
    }
    return resolved;
  }

  /** Whether a regular file is there (a folder or nothing: false); nothing is read. */
  async isFile(systemPath: string): Promise<boolean> {
    try {
      return (await fs.stat(this.path(systemPath))).isFile();
    } catch {
      return false;
    }
  }

  async readFile(systemPath: string): Promise<string | null> {
    try {
      return await fs.readFile(this.path(systemPath), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Writes files atomically as one change, outside any database transaction (files that follow
   * database state go through the apply pipeline in server/src/apply/ instead): each is staged
   * beside its target, `check` proves the staged set, and only then are the files whose content
   * changed renamed into place, with backups; a failed check, or a rename failing midway, leaves
   * the last good files in place.
   */
  async commitFiles(
    files: { path: string; content: string; mode?: number }[],
    check?: (staged: StagedFile[]) => Promise<CheckResult>,
  ): Promise<CheckResult> {
    const set = await StagedSet.create(this, files);
    let result: CheckResult;
    try {
      result = check ? await check(set.staged) : { ok: true, output: '' };
    } catch (err) {
      await set.discard();
      throw err;
    }
    if (!result.ok) {
      await set.discard();
      return result;
    }
    const swap = await set.swap((from, to) => fs.rename(from, to));
    await swap.commit();
    return result;
  }

  async removeFile(systemPath: string): Promise<void> {
    await fs.rm(this.path(systemPath), { force: true });
  }

  /** Runs a program without a shell; never throws for a non-zero exit (see boundedRun). */
  run(cmd: string, args: string[], opts: BoundedRunOptions = {}): Promise<RunResult> {
    return boundedRun(cmd, args, opts);
  }

  /** Absolute path of a program on PATH or in the sbin folders, or null. */
  async which(cmd: string): Promise<string | null> {
    const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin', '/usr/local/sbin'];
    for (const d of dirs) {
      if (!d) continue;
      const p = path.join(d, cmd);
      try {
        await fs.access(p, constants.X_OK);
        return p;
      } catch {
        /* not here */
      }
    }
    return null;
  }
}

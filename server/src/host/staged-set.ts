import { promises as fs } from 'node:fs';
import path from 'node:path';
import { backupReplacedFiles } from './system-file-backup.ts';

export interface StagedFile {
  /** Absolute path of the file's final place (under the host root). */
  target: string;
  /** Absolute path of the staged copy, in the same folder, renamed over `target` on success. */
  staged: string;
  content: string;
}

/** What staging needs of the host (`Host` in host.ts, which stages through this file). */
export interface StagingHost {
  readonly root: string;
  readonly backupDir: string | null;
  path(systemPath: string): string;
  readFile(systemPath: string): Promise<string | null>;
  which(cmd: string): Promise<string | null>;
  run(cmd: string, args: string[], opts?: { timeoutMs?: number }): Promise<{ code: number }>;
}

/** One rendered file, by its system path (mapped under the host root when written). */
export interface HostFile {
  path: string;
  content: string;
  mode?: number;
  /**
   * Written with its modification time 2 s in the past (POSTFIX_COOL_DOWN): Postfix re-reads a
   * configuration file changed in the last 2 s every 300 ms until it is older (util/dict.c
   * `dict_load_file_xt`, "pausing to let file cool down"), so every `postconf`, `postfix check`,
   * `postfix reload` and proxymap after a save waited up to 2 s. That guards against reading a file
   * an editor is still writing; a staged file is complete before it is renamed into place.
   */
  backdate?: boolean;
}

/** How far back a `backdate` file's modification time is set: older than Postfix's 2 s cool-down. */
export const POSTFIX_COOL_DOWN_S = 2;

/** Sets a file's access and modification times POSTFIX_COOL_DOWN_S in the past. */
export async function backdateFile(file: string): Promise<void> {
  const t = Date.now() / 1000 - POSTFIX_COOL_DOWN_S;
  await fs.utimes(file, t, t);
}

/** The files of one apply that differ from the live ones. */
export interface FileChanges {
  /** System paths written (new or different content). */
  written: string[];
  /** System paths removed. */
  removed: string[];
}

let counter = 0;
const stamp = () => `${process.pid}-${Date.now()}-${++counter}`;

// Up to this many files are each synced on their own; beyond, one sync of their file system.
const SYNC_EACH_MAX = 64;

async function syncFile(p: string): Promise<void> {
  const h = await fs.open(p, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Reads the live content of each file; null when it does not exist. */
async function liveContents(host: StagingHost, files: HostFile[]): Promise<(string | null)[]> {
  return Promise.all(files.map((f) => host.readFile(f.path)));
}

/**
 * A rendered set staged beside its targets (`.<name>.<pid>-<ms>-<n>.tmp`, the name
 * `unstagedOutput` maps back), each flagged with whether it differs from the live file.
 */
export class StagedSet {
  private constructor(
    readonly host: StagingHost,
    readonly staged: (StagedFile & { path: string; changed: boolean })[],
    readonly removals: string[],
  ) {}

  static async create(host: StagingHost, files: HostFile[], remove: string[] = []): Promise<StagedSet> {
    const live = await liveContents(host, files);
    const s = stamp();
    const staged: (StagedFile & { path: string; changed: boolean })[] = [];
    const removals: string[] = [];
    for (const p of remove) if ((await host.readFile(p)) !== null) removals.push(p);
    const set = new StagedSet(host, staged, removals);
    try {
      for (const [i, f] of files.entries()) {
        const target = host.path(f.path);
        await fs.mkdir(path.dirname(target), { recursive: true });
        const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${s}.tmp`);
        await fs.writeFile(tmp, f.content, { encoding: 'utf8', mode: f.mode ?? 0o644 });
        if (f.mode !== undefined) await fs.chmod(tmp, f.mode);
        if (f.backdate) await backdateFile(tmp);
        staged.push({
          target,
          staged: tmp,
          content: f.content,
          path: f.path,
          changed: live[i] !== f.content,
        });
      }
    } catch (err) {
      await set.discard();
      throw err;
    }
    return set;
  }

  get changes(): FileChanges {
    return { written: this.staged.filter((f) => f.changed).map((f) => f.path), removed: this.removals };
  }

  get empty(): boolean {
    return this.removals.length === 0 && this.staged.every((f) => !f.changed);
  }

  /** Removes every staged copy (after a refused check, or after the swap for unchanged files). */
  async discard(): Promise<void> {
    await Promise.all(this.staged.map((f) => fs.rm(f.staged, { force: true })));
  }

  /**
   * Puts the changed files live together: the live ones are kept as backups (hard links), then each
   * staged copy is renamed over its target. A failure midway renames every backup back, so the
   * live files are the last good set again, and rethrows. Unchanged staged copies are removed.
   */
  async swap(rename: (from: string, to: string) => Promise<void>): Promise<SwapHandle> {
    const changed = this.staged.filter((f) => f.changed);
    const s = stamp();
    // Durable before any goes live.
    if (changed.length <= SYNC_EACH_MAX) await Promise.all(changed.map((f) => syncFile(f.staged)));
    else {
      const bin = await this.host.which('sync');
      const dirs = [...new Set(changed.map((f) => path.dirname(f.target)))];
      if (!bin || (await this.host.run(bin, ['-f', ...dirs], { timeoutMs: 600_000 })).code !== 0)
        for (const f of changed) await syncFile(f.staged);
    }
    // The first time a file Mailroom did not write (Debian's main.cf, say) is replaced or removed,
    // a copy is kept under the data folder's backups.
    if (this.host.backupDir)
      await backupReplacedFiles(this.host.backupDir, this.host.root, [
        ...changed.map((f) => f.target),
        ...this.removals.map((p) => this.host.path(p)),
      ]);
    const done: { target: string; backup: string | null }[] = [];
    const handle = new SwapHandle(done);
    try {
      for (const f of changed) {
        const backup = await keepBackup(f.target, s);
        done.push({ target: f.target, backup });
        await rename(f.staged, f.target);
      }
      for (const p of this.removals) {
        const target = this.host.path(p);
        const backup = await keepBackup(target, s);
        done.push({ target, backup });
        await fs.rm(target, { force: true });
      }
    } catch (err) {
      await handle.restore();
      await this.discard();
      throw err;
    }
    await Promise.all(this.staged.filter((f) => !f.changed).map((f) => fs.rm(f.staged, { force: true })));
    return handle;
  }
}

/** Hard-links the live file to a backup name; null when there is no live file. */
async function keepBackup(target: string, s: string): Promise<string | null> {
  const backup = path.join(path.dirname(target), `.${path.basename(target)}.${s}.bak`);
  try {
    await fs.link(target, backup);
    return backup;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EEXIST') await fs.rm(backup, { force: true });
    await fs.copyFile(target, backup);
    return backup;
  }
}

/** The swapped files' backups: `restore()` brings the last good set back, `commit()` drops them. */
export class SwapHandle {
  constructor(private readonly done: { target: string; backup: string | null }[]) {}

  /** Every swapped file back as it was (a file that did not exist is removed again). */
  async restore(): Promise<void> {
    const errors: unknown[] = [];
    for (const d of [...this.done].reverse()) {
      try {
        if (d.backup) {
          await fs.rename(d.backup, d.target);
          // A rename between two links of one file does nothing: the backup is still there.
          await fs.rm(d.backup, { force: true });
        } else await fs.rm(d.target, { force: true });
      } catch (err) {
        errors.push(err);
      }
    }
    this.done.length = 0;
    if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  }

  /** The new files stay; the backups go, and the folders are synced so the renames last. */
  async commit(): Promise<void> {
    const dirs = new Set<string>();
    for (const d of this.done) {
      dirs.add(path.dirname(d.target));
      if (d.backup) await fs.rm(d.backup, { force: true });
    }
    for (const dir of dirs) {
      try {
        await syncFile(dir);
      } catch {
        /* the journal records the renames shortly in any case */
      }
    }
    this.done.length = 0;
  }
}

/** Moves one file into place (the apply pipeline's default; tests inject a failing one). */
export const renameFile = (from: string, to: string): Promise<void> => fs.rename(from, to);

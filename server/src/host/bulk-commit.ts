import fs from 'node:fs';
import path from 'node:path';
import type { CheckResult, Host, StagedFile } from './host.ts';

// Up to this many files are each synced on their own; beyond, one sync of the file system is
// cheaper than a journal commit per file.
const SYNC_EACH_MAX = 64;
// Files written between two turns of the event loop, so other requests are served meanwhile.
const SLICE = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function syncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes the written files durable: each synced, or their file system synced once (`sync -f`). */
async function flush(host: Host, staged: StagedFile[], dirs: string[]): Promise<void> {
  if (staged.length > SYNC_EACH_MAX) {
    const bin = await host.which('sync');
    if (bin && (await host.run(bin, ['-f', ...dirs], { timeoutMs: 600_000 })).code === 0) return;
  }
  for (let i = 0; i < staged.length; i++) {
    if (i % SLICE === SLICE - 1) await nextTurn();
    syncPath((staged[i] as StagedFile).staged);
  }
}

/**
 * `Host.commitFiles` for thousands of files (an import touching every zone), with the same
 * contract: each file is staged beside its target, `check` proves the staged set, and only then
 * are they renamed into place; a failed check removes the staged copies and leaves the last good
 * files untouched. It differs in how the files reach the disk: they are all written first and then
 * made durable together, before the first rename (one sync instead of a journal commit per file),
 * and the folders are synced after the renames so those last too.
 */
export async function commitManyFiles(
  host: Host,
  files: { path: string; content: string }[],
  check: (staged: StagedFile[]) => Promise<CheckResult>,
): Promise<CheckResult> {
  const stamp = `${process.pid}-${Date.now()}-${Math.floor(performance.now() * 1000) % 1_000_000}`;
  const staged: StagedFile[] = files.map((f) => {
    const target = host.path(f.path);
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${stamp}.tmp`);
    return { target, staged: tmp, content: f.content };
  });
  const dirs = [...new Set(staged.map((s) => path.dirname(s.target)))];
  let written = 0;
  const removeStaged = () => {
    for (const s of staged.slice(0, written)) fs.rmSync(s.staged, { force: true });
  };
  try {
    for (const d of dirs) fs.mkdirSync(d, { recursive: true });
    for (const s of staged) {
      if (written % SLICE === SLICE - 1) await nextTurn();
      written++;
      fs.writeFileSync(s.staged, s.content, { encoding: 'utf8', mode: 0o644 });
    }
    await flush(host, staged, dirs);
    const result = await check(staged);
    if (!result.ok) {
      removeStaged();
      return result;
    }
    for (const s of staged) fs.renameSync(s.staged, s.target);
    // The files are in place now, so a folder that cannot be synced is no reason to roll back:
    // the file system's journal records the renames shortly in any case.
    for (const d of dirs) {
      try {
        syncPath(d);
      } catch {
        /* see above */
      }
    }
    return result;
  } catch (err) {
    removeStaged();
    throw err;
  }
}

// Host.commitFiles and commitManyFiles stage `<dir>/<name>` as `<dir>/.<name>.<pid>-<ms>-<n>.tmp`.
const STAGED_NAME = /\/\.([^/\s"']+?)\.\d+-\d+-\d+\.tmp/g;

/** Checker output with the staged copies' paths written as the files they become. */
export function unstagedOutput(output: string): string {
  return output.replace(STAGED_NAME, '/$1');
}

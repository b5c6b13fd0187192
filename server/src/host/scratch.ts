import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backdateFile } from './staged-set.ts';

/**
 * A private scratch folder under the system's temporary folder (`<prefix>XXXXXX`), removed with
 * everything in it once `work` is done, whether it succeeded or not.
 */
export async function withScratchDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a file in a scratch folder (its parent folders made), for a checker to read; `backdate`:
 * with its modification time in the past, for Postfix's readers (HostFile.backdate says why).
 */
export async function writeScratchFile(
  file: string,
  text: string,
  mode?: number,
  opts: { backdate?: boolean } = {},
): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text, mode === undefined ? undefined : { mode });
  if (opts.backdate) await backdateFile(file);
}

/** A file a program wrote in a scratch folder. */
export async function readScratchFile(file: string): Promise<string> {
  return fs.readFile(file, 'utf8');
}

/** Makes a private scratch folder (`<prefix>XXXXXX`); the caller removes it (`removeTree`). */
export async function makeScratchDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

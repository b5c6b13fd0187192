import { createReadStream, promises as fs, type ReadStream } from 'node:fs';

/**
 * Files of Mailroom's own folders (the data folder, the backup folder, staging and scratch
 * folders): the plain file work of backups and restores. Daemon configuration goes through
 * `Host.commitFiles` and the apply pipeline instead.
 */

/** Makes a folder and its parents (`mode` for the ones made). */
export async function makeFolder(dir: string, mode?: number): Promise<void> {
  await fs.mkdir(dir, mode === undefined ? { recursive: true } : { recursive: true, mode });
}

export async function writeTextFile(file: string, text: string): Promise<void> {
  await fs.writeFile(file, text);
}

export async function appendTextFile(file: string, text: string): Promise<void> {
  await fs.appendFile(file, text);
}

export async function readTextFile(file: string): Promise<string> {
  return fs.readFile(file, 'utf8');
}

export async function copyFile(from: string, to: string): Promise<void> {
  await fs.copyFile(from, to);
}

/** Renames a file within one file system. */
export async function moveFile(from: string, to: string): Promise<void> {
  await fs.rename(from, to);
}

/** True when the file exists (and can be reached). */
export async function fileExists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** A file's size in bytes; throws when it is missing. */
export async function sizeOf(file: string): Promise<number> {
  return (await fs.stat(file)).size;
}

/** A file's size in bytes, or null when it is missing. */
export async function sizeOrNull(file: string): Promise<number | null> {
  return (await fs.stat(file).catch(() => null))?.size ?? null;
}

/** A file's bytes as a stream (a download). */
export function fileStream(file: string): ReadStream {
  return createReadStream(file);
}

import { promises as fs, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';

/** What `lstat` says of a path (links are not followed). */
export type FileInfo = Stats;

/** A folder's entries with their kinds; none when it cannot be read. */
export async function folderEntries(dir: string): Promise<Dirent[]> {
  return fs.readdir(dir, { withFileTypes: true }).catch(() => []);
}

/** A folder's entry names; none when it cannot be read. */
export async function folderNames(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => [] as string[]);
}

/** A path's own information (a link is not followed), or null when it cannot be read. */
export async function infoOf(p: string): Promise<FileInfo | null> {
  return fs.lstat(p).catch(() => null);
}

/** Every regular file under `dir`, depth first, with its information. */
export async function walkFiles(dir: string, visit: (file: string, st: FileInfo) => void): Promise<void> {
  for (const e of await folderEntries(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walkFiles(p, visit);
    else if (e.isFile()) {
      const st = await infoOf(p);
      if (st) visit(p, st);
    }
  }
}

/** Removes a file or a folder with everything in it; one already gone is fine. */
export async function removeTree(p: string): Promise<void> {
  await fs.rm(p, { recursive: true, force: true });
}

/** Removes one file; throws when it cannot (gone included). */
export async function removeOneFile(p: string): Promise<void> {
  await fs.rm(p);
}

/** Empties a file in place: whoever appends to it keeps writing to the same file. */
export async function emptyFile(p: string): Promise<void> {
  await fs.truncate(p, 0);
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Host } from './host.ts';

/**
 * Folder moves under the host root (mail folders set aside on delete, purged on request).
 * Paths are system paths, mapped by the Host.
 */

/** Moves a folder; false when there was nothing to move. The parent of `to` is created. */
export async function moveFolder(host: Host, from: string, to: string): Promise<boolean> {
  const src = host.path(from);
  const dst = host.path(to);
  try {
    await fs.access(src);
  } catch {
    return false;
  }
  await fs.mkdir(path.dirname(dst), { recursive: true });
  await fs.rename(src, dst);
  return true;
}

/** Names in a folder, or none when it does not exist. */
export async function listFolder(host: Host, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(host.path(dir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export async function removeFolder(host: Host, dir: string): Promise<void> {
  await fs.rm(host.path(dir), { recursive: true, force: true });
}

export async function fileExists(host: Host, file: string): Promise<boolean> {
  try {
    await fs.access(host.path(file));
    return true;
  } catch {
    return false;
  }
}

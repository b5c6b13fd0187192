import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Puts a small public file (an ACME token) into `dir`, made 0755 when missing: written 0644
 * under a temporary name, then renamed into place so the web server never serves half of it.
 */
export async function publishFile(dir: string, name: string, content: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const file = path.join(dir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, content, { mode: 0o644 });
  await fs.rename(tmp, file);
}

/** Removes a published file; one already gone is fine. */
export async function unpublishFile(dir: string, name: string): Promise<void> {
  await fs.rm(path.join(dir, name), { force: true });
}

/** A PEM bundle the operator configured (a private CA to trust), read once. */
export function readPemFile(file: string): string {
  return readFileSync(file, 'utf8');
}

import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** `bytes` raw bytes, or (an older form) base64 text of `bytes` bytes. */
function readKey(file: string, bytes: number): Buffer {
  const raw = readFileSync(file);
  if (raw.length === bytes) return raw;
  const decoded = Buffer.from(raw.toString('utf8').trim(), 'base64');
  if (decoded.length !== bytes)
    throw new Error(`${file} must hold a ${bytes}-byte key (it holds ${raw.length} bytes)`);
  return decoded;
}

/**
 * The key in `file` (mode 0600), made of `bytes` random bytes on first use. A new file is written
 * under a unique temporary name and linked into place, so two processes (or two first uses in one)
 * starting together agree on one key: the first link wins.
 */
export function loadOrCreateKeyFile(file: string, bytes: number): Buffer {
  try {
    const key = readKey(file, bytes);
    chmodSync(file, 0o600);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, randomBytes(bytes), { mode: 0o600 });
  try {
    linkSync(tmp, file); // refuses an existing file: another process made it first, and its key stands
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readKey(file, bytes);
}

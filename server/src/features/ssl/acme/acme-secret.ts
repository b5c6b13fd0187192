import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * The key that encrypts ACME account keys at rest: 32 random bytes in `acme-secret.key` in the data
 * folder, mode 0600, made on first use. Back it up with the database: without it the stored
 * accounts cannot be used (a new account is then registered on the next order).
 */
export const ACME_SECRET_FILE = 'acme-secret.key';
const PREFIX = 'v1:';

async function loadOrCreate(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, ACME_SECRET_FILE);
  try {
    const key = await fs.readFile(file);
    if (key.length === 32) return key;
    throw new Error(`${file} is not a 32-byte key`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  // Unique per call: two first uses in one process must not share (and remove) one temporary file.
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(tmp, key, { mode: 0o600 });
  try {
    // link refuses an existing file: another process that made one first wins, and we use its key.
    await fs.link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return fs.readFile(file);
}

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export async function acmeSecretBox(dataDir: string): Promise<SecretBox> {
  const key = await loadOrCreate(dataDir);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('Unknown ACME key encoding');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

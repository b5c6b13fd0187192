import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in the data folder whose 32 bytes encrypt every stored private key (back it up). */
export const KEY_FILE_NAME = 'ssl-keys.secret';

/**
 * Private keys at rest: AES-256-GCM with a key file in the data folder, 0600, made on first use.
 * Without that file the stored keys cannot be read: it belongs in every backup of the database.
 */
export class KeyVault {
  private constructor(private readonly key: Buffer) {}

  static open(dataDir: string): KeyVault {
    const file = path.join(dataDir, KEY_FILE_NAME);
    let key: Buffer;
    try {
      key = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      fs.mkdirSync(dataDir, { recursive: true });
      try {
        // wx: two processes starting together never overwrite each other's key.
        fs.writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      key = fs.readFileSync(file);
    }
    if (key.length !== 32) throw new Error(`${file} must hold 32 bytes (it holds ${key.length})`);
    fs.chmodSync(file, 0o600);
    return new KeyVault(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('unknown sealed key format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

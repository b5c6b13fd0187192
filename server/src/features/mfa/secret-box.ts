import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync, linkSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Encrypts second-factor secrets at rest (AES-256-GCM) and keys the backup-code hashes (HMAC),
 * with a 32-byte key kept in `<data folder>/mfa.key` (mode 0600), made on first use. The file is
 * written beside its final name and linked into place, so two processes starting together agree
 * on one key.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(dataDir: string) {
    this.key = loadOrCreateKey(path.join(dataDir, 'mfa.key'));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      c.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  open(sealed: string): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
  }

  /** Keyed hash of a high-entropy value (backup codes, challenge tokens). */
  mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex');
  }
}

function loadOrCreateKey(file: string): Buffer {
  try {
    return readKey(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, randomBytes(32).toString('base64'), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, file); // fails if another process made it first: theirs stands
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      renameSync(tmp, file);
      return readKey(file);
    }
  }
  unlinkSync(tmp);
  return readKey(file);
}

function readKey(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The key files in the data folder, one per kind of secret (each belongs in every backup of the
 * database: without it the values it sealed cannot be opened).
 */
export const VAULT_FILES = {
  /** Private keys of stored certificates and pending CSRs. */
  sslKeys: 'ssl-keys.secret',
  /** ACME account keys. */
  acme: 'acme-secret.key',
  /** Second-factor secrets, and the key of the backup-code hashes. */
  mfa: 'mfa.key',
  /** Secrets of planned bulk items (a mailbox password), kept until each item is done. */
  bulk: 'bulk-ledger.key',
  /** Environment variables of web applications and of their releases. */
  webApps: 'web-apps.key',
} as const;
export type VaultFile = (typeof VAULT_FILES)[keyof typeof VAULT_FILES];

const KEY_BYTES = 32;
const IV = 12;
const TAG = 16;

/**
 * Secrets at rest: AES-256-GCM with a 32-byte key file in the data folder (mode 0600), made on
 * first use. A new file is written under a unique temporary name and linked into place, so two
 * processes (or two first uses in one) starting together agree on one key: the first link wins.
 *
 * Reads every form the earlier per-area code wrote, so existing installs lose nothing: key files of
 * 32 raw bytes (SSL, ACME) or base64 text (MFA); sealed values `v1:<base64 iv|tag|body>` (SSL,
 * ACME) or `v1.<iv>.<tag>.<body>` in base64url (MFA). New values are sealed in the first form.
 */
export class SecretVault {
  private constructor(
    private readonly key: Buffer,
    readonly file: string,
  ) {}

  static open(dataDir: string, name: VaultFile): SecretVault {
    const file = path.join(dataDir, name);
    return new SecretVault(loadOrCreateKey(file), file);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const [iv, tag, body] = splitSealed(sealed);
    const d = createDecipheriv('aes-256-gcm', this.key, iv);
    d.setAuthTag(tag);
    return Buffer.concat([d.update(body), d.final()]).toString('utf8');
  }

  /** Keyed hash of a high-entropy value (backup codes, challenge tokens). */
  mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex');
  }
}

function splitSealed(sealed: string): [Buffer, Buffer, Buffer] {
  if (sealed.startsWith('v1:')) {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    if (raw.length < IV + TAG) throw new Error('sealed value is too short');
    return [raw.subarray(0, IV), raw.subarray(IV, IV + TAG), raw.subarray(IV + TAG)];
  }
  const [v, iv, tag, body, extra] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined || extra !== undefined)
    throw new Error('not a sealed value (unknown format)');
  return [Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(body, 'base64url')];
}

/** 32 raw bytes, or (the MFA file's form) base64 text of 32 bytes. */
function readKey(file: string): Buffer {
  const bytes = readFileSync(file);
  if (bytes.length === KEY_BYTES) return bytes;
  const decoded = Buffer.from(bytes.toString('utf8').trim(), 'base64');
  if (decoded.length !== KEY_BYTES)
    throw new Error(`${file} must hold a 32-byte key (it holds ${bytes.length} bytes)`);
  return decoded;
}

function loadOrCreateKey(file: string): Buffer {
  try {
    const key = readKey(file);
    chmodSync(file, 0o600);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, randomBytes(KEY_BYTES), { mode: 0o600 });
  try {
    linkSync(tmp, file); // refuses an existing file: another process made it first, and its key stands
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readKey(file);
}

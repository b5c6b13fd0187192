import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadOrCreateKeyFile } from '../host/key-file.ts';

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
    return new SecretVault(loadOrCreateKeyFile(file, KEY_BYTES), file);
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

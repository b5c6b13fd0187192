import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretVault, VAULT_FILES } from './secret-vault.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'vault-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What the per-area code (before the vault) wrote, byte for byte: the formats existing installs hold. */
function legacySeal(key: Buffer, plain: string, form: 'colon' | 'dotted'): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  const tag = c.getAuthTag();
  return form === 'colon'
    ? `v1:${Buffer.concat([iv, tag, body]).toString('base64')}`
    : ['v1', iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join('.');
}

describe('secret vault', () => {
  it('makes a 0600 key file on first use and opens its values again after a restart', () => {
    const dir = tempDir();
    for (const name of Object.values(VAULT_FILES)) {
      const sealed = SecretVault.open(dir, name).seal('-----BEGIN PRIVATE KEY-----\nabc\n');
      expect(sealed).not.toContain('PRIVATE KEY');
      expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dir, name)).size).toBe(32);
      expect(SecretVault.open(dir, name).open(sealed)).toBe('-----BEGIN PRIVATE KEY-----\nabc\n');
    }
    // One key per file: a value sealed for ACME does not open with the SSL key.
    const acme = SecretVault.open(dir, VAULT_FILES.acme).seal('x');
    expect(() => SecretVault.open(dir, VAULT_FILES.sslKeys).open(acme)).toThrow();
  });

  it('refuses a tampered value, a foreign key and garbage', () => {
    const v = SecretVault.open(tempDir(), VAULT_FILES.sslKeys);
    const sealed = v.seal('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => v.open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => SecretVault.open(tempDir(), VAULT_FILES.sslKeys).open(sealed)).toThrow();
    expect(() => v.open('plain text')).toThrow(/unknown format/);
  });

  it('opens what existing installs hold: raw SSL/ACME key files and the base64 MFA key file', () => {
    const dir = tempDir();
    const sslKey = randomBytes(32);
    writeFileSync(path.join(dir, VAULT_FILES.sslKeys), sslKey, { mode: 0o644 });
    const mfaKey = randomBytes(32);
    writeFileSync(path.join(dir, VAULT_FILES.mfa), mfaKey.toString('base64'), { mode: 0o600 });

    const ssl = SecretVault.open(dir, VAULT_FILES.sslKeys);
    expect(ssl.open(legacySeal(sslKey, 'ssl private key', 'colon'))).toBe('ssl private key');
    expect(statSync(path.join(dir, VAULT_FILES.sslKeys)).mode & 0o777).toBe(0o600);

    const mfa = SecretVault.open(dir, VAULT_FILES.mfa);
    expect(mfa.open(legacySeal(mfaKey, 'JBSWY3DPEHPK3PXP', 'dotted'))).toBe('JBSWY3DPEHPK3PXP');
    // Backup-code hashes keep matching: the same key, the same HMAC.
    expect(mfa.mac('1234-5678')).toBe(createHmac('sha256', mfaKey).update('1234-5678').digest('hex'));
    // The existing file is left as it was (no rewrite).
    expect(statSync(path.join(dir, VAULT_FILES.mfa)).size).toBe(44);
  });

  it('refuses a key file of the wrong size rather than making a new key', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, VAULT_FILES.acme), randomBytes(16));
    expect(() => SecretVault.open(dir, VAULT_FILES.acme)).toThrow(/32-byte key/);
  });

  it('every later open finds the key the first one made (no temporary file left behind)', async () => {
    const dir = tempDir();
    const vaults = Array.from({ length: 4 }, () => SecretVault.open(dir, VAULT_FILES.acme));
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual([VAULT_FILES.acme]);
    const sealed = vaults[0]!.seal('shared');
    for (const v of vaults) expect(v.open(sealed)).toBe('shared');
  });
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME_SECRET_FILE, acmeSecretBox } from './acme-secret.ts';

describe('ACME account keys at rest', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acme-secret-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seals with a 0600 data-folder key and opens again in another process (same file)', async () => {
    const box = await acmeSecretBox(dir);
    const sealed = box.seal('-----BEGIN PRIVATE KEY-----\nabc\n');
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(statSync(path.join(dir, ACME_SECRET_FILE)).mode & 0o777).toBe(0o600);
    const again = await acmeSecretBox(dir);
    expect(again.open(sealed)).toBe('-----BEGIN PRIVATE KEY-----\nabc\n');
  });

  it('refuses a tampered or foreign value', async () => {
    const box = await acmeSecretBox(dir);
    const sealed = box.seal('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow();
    const other = mkdtempSync(path.join(os.tmpdir(), 'acme-secret-'));
    try {
      await expect(acmeSecretBox(other).then((b) => b.open(sealed))).rejects.toThrow();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

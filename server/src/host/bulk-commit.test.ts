import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from './host.ts';
import { commitManyFiles, unstagedOutput } from './bulk-commit.ts';

describe('commitManyFiles', () => {
  let root: string;
  let host: Host;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bulk-commit-'));
    host = new Host(root, false);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const zoneFiles = (n: number, text: string) =>
    Array.from({ length: n }, (_, i) => ({
      path: `/etc/bind/zones/db.z${i}.test`,
      content: `${text} ${i}\n`,
    }));
  const dir = () => path.join(root, 'etc/bind/zones');

  // Both ways of making the files durable: one sync each (few files) and one of the file system.
  for (const n of [3, 100]) {
    it(`lets the check see every staged file, then puts ${n} files in place`, async () => {
      const seen: string[] = [];
      const res = await commitManyFiles(host, zoneFiles(n, 'new'), async (staged) => {
        for (const s of staged) seen.push(readFileSync(s.staged, 'utf8'));
        expect(existsSync(staged[0]?.target ?? '')).toBe(false);
        return { ok: true, output: 'fine' };
      });
      expect(res).toEqual({ ok: true, output: 'fine' });
      expect(seen).toEqual(zoneFiles(n, 'new').map((f) => f.content));
      expect(readdirSync(dir()).sort()).toEqual(
        zoneFiles(n, '')
          .map((f) => path.basename(f.path))
          .sort(),
      );
      expect(readFileSync(path.join(dir(), 'db.z1.test'), 'utf8')).toBe('new 1\n');
    });

    it(`keeps the last good files when the check refuses ${n} files`, async () => {
      await commitManyFiles(host, zoneFiles(2, 'good'), async () => ({ ok: true, output: '' }));
      const res = await commitManyFiles(host, zoneFiles(n, 'bad'), async () => ({ ok: false, output: 'no' }));
      expect(res).toEqual({ ok: false, output: 'no' });
      expect(readdirSync(dir()).sort()).toEqual(['db.z0.test', 'db.z1.test']);
      expect(readFileSync(path.join(dir(), 'db.z0.test'), 'utf8')).toBe('good 0\n');
    });
  }

  it('removes the staged copies when the check throws', async () => {
    await expect(
      commitManyFiles(host, zoneFiles(3, 'x'), () => Promise.reject(new Error('checker crashed'))),
    ).rejects.toThrow('checker crashed');
    expect(readdirSync(dir())).toEqual([]);
  });
});

describe('unstagedOutput', () => {
  it('names the files the staged copies become', () => {
    const out =
      '/r/etc/bind/zones/.db.a.test.123-1700000000000-42.tmp:5: unknown RR type\n' +
      'zone b.test/IN: loading from master file /r/etc/bind/zones/.db.b.test.9-8-7.tmp failed';
    expect(unstagedOutput(out)).toBe(
      '/r/etc/bind/zones/db.a.test:5: unknown RR type\n' +
        'zone b.test/IN: loading from master file /r/etc/bind/zones/db.b.test failed',
    );
  });
});

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from './host.ts';
import { POSTFIX_COOL_DOWN_S, StagedSet } from './staged-set.ts';

describe('StagedSet', () => {
  let root: string;
  let host: Host;
  const live = (p: string) => (existsSync(host.path(p)) ? readFileSync(host.path(p), 'utf8') : null);
  const leftovers = () => readdirSync(host.path('/etc/x')).filter((n) => /\.(tmp|bak)$/.test(n));
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-fileset-'));
    host = new Host(root, false);
    mkdirSync(host.path('/etc/x'), { recursive: true });
    writeFileSync(host.path('/etc/x/a'), 'a1');
    writeFileSync(host.path('/etc/x/b'), 'b1');
    writeFileSync(host.path('/etc/x/gone'), 'g1');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('puts a backdate file live with its modification time past Postfix’s cool-down, the others as written', async () => {
    const t0 = Date.now();
    const set = await StagedSet.create(host, [
      { path: '/etc/x/a', content: 'a2', backdate: true },
      { path: '/etc/x/b', content: 'b2' },
    ]);
    await (await set.swap((f, t) => fs.rename(f, t))).commit();
    const a = await fs.stat(host.path('/etc/x/a'));
    const b = await fs.stat(host.path('/etc/x/b'));
    expect(live('/etc/x/a')).toBe('a2');
    // A Postfix program started now reads it at once: it pauses while mtime >= its start second - 1.
    const started = Math.floor(Date.now() / 1000);
    expect(Math.floor(a.mtimeMs / 1000)).toBeLessThan(started - 1);
    expect(a.mtimeMs).toBeGreaterThan(t0 - (POSTFIX_COOL_DOWN_S + 1) * 1000);
    expect(b.mtimeMs).toBeGreaterThanOrEqual(Math.floor(t0 / 1000) * 1000);
  });

  it('flags only files whose content differs, and swaps only those', async () => {
    const set = await StagedSet.create(host, [
      { path: '/etc/x/a', content: 'a1' },
      { path: '/etc/x/b', content: 'b2' },
      { path: '/etc/x/new', content: 'n1' },
    ]);
    expect(set.changes).toEqual({ written: ['/etc/x/b', '/etc/x/new'], removed: [] });
    const before = (await fs.stat(host.path('/etc/x/a'))).mtimeMs;
    await (await set.swap((f, t) => fs.rename(f, t))).commit();
    expect([live('/etc/x/a'), live('/etc/x/b'), live('/etc/x/new')]).toEqual(['a1', 'b2', 'n1']);
    expect((await fs.stat(host.path('/etc/x/a'))).mtimeMs).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it('restores every file, new and removed ones too, when a rename fails midway', async () => {
    const set = await StagedSet.create(
      host,
      [
        { path: '/etc/x/new', content: 'n1' },
        { path: '/etc/x/a', content: 'a2' },
        { path: '/etc/x/b', content: 'b2' },
      ],
      ['/etc/x/gone'],
    );
    let n = 0;
    await expect(
      set.swap(async (f, t) => {
        if (++n === 3) throw new Error('EIO (injected)');
        await fs.rename(f, t);
      }),
    ).rejects.toThrow('EIO (injected)');
    expect([live('/etc/x/new'), live('/etc/x/a'), live('/etc/x/b'), live('/etc/x/gone')]).toEqual([
      null,
      'a1',
      'b1',
      'g1',
    ]);
    expect(leftovers()).toEqual([]);
  });

  it('restore() after a full swap brings the last good set back (a failed reload)', async () => {
    const set = await StagedSet.create(host, [{ path: '/etc/x/a', content: 'a2' }], ['/etc/x/gone']);
    const swap = await set.swap((f, t) => fs.rename(f, t));
    expect([live('/etc/x/a'), live('/etc/x/gone')]).toEqual(['a2', null]);
    await swap.restore();
    expect([live('/etc/x/a'), live('/etc/x/gone')]).toEqual(['a1', 'g1']);
    expect(leftovers()).toEqual([]);
  });
});

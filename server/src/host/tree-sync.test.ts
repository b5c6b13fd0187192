import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncTree } from './tree-sync.ts';

const asRoot = process.getuid?.() === 0;

describe('syncTree (what a restore writes into the data folder)', () => {
  let dir: string;
  let from: string;
  let to: string;
  let server: net.Server | null = null;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sync-'));
    from = path.join(dir, 'from');
    to = path.join(dir, 'to');
    mkdirSync(from);
    mkdirSync(to);
  });
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });
  const opts = {
    excluded: new Set(['logs']),
    leaveAlone: (rel: string) =>
      rel === 'run' || rel.startsWith('run/') || rel === 'var/log' || rel.startsWith('var/log/'),
    holdsLeftAlone: (rel: string) => rel === 'var',
    freshTime: (rel: string) => rel.startsWith('etc/'),
    asRoot,
  };

  it('leaves the runtime state alone (a live socket, a log), removes what the source lacks, writes the rest', async () => {
    mkdirSync(path.join(to, 'run'));
    const sock = path.join(to, 'run', 'auth.sock');
    server = net.createServer();
    await new Promise<void>((r) => server!.listen(sock, r));
    mkdirSync(path.join(to, 'var/log'), { recursive: true });
    writeFileSync(path.join(to, 'var/log/mail.log'), 'line 1\nline 2 after the backup\n');
    writeFileSync(path.join(to, 'var/stray'), 'not in the backup');
    mkdirSync(path.join(to, 'logs'));
    writeFileSync(path.join(to, 'logs/mailroom.log'), 'live');
    // The archive: an old log, no run/ at all (tar skips sockets), a mail file.
    mkdirSync(path.join(from, 'var/log'), { recursive: true });
    writeFileSync(path.join(from, 'var/log/mail.log'), 'line 1\n');
    mkdirSync(path.join(from, 'var/vmail/cur'), { recursive: true });
    writeFileSync(path.join(from, 'var/vmail/cur/1.eml'), 'Subject: kept\n');

    const r = await syncTree(from, to, opts);
    expect(lstatSync(sock).isSocket()).toBe(true);
    expect(readFileSync(path.join(to, 'var/log/mail.log'), 'utf8')).toContain('after the backup');
    expect(readFileSync(path.join(to, 'logs/mailroom.log'), 'utf8')).toBe('live');
    expect(() => lstatSync(path.join(to, 'var/stray'))).toThrow();
    expect(readFileSync(path.join(to, 'var/vmail/cur/1.eml'), 'utf8')).toBe('Subject: kept\n');
    expect(r.paths.sort()).toEqual(['var/stray', 'var/vmail/cur/1.eml']);
  });

  it.skipIf(!asRoot)(
    'as root, owners, modes and times come back as archived; configuration gets a fresh time',
    async () => {
      mkdirSync(path.join(from, 'vmail/cur'), { recursive: true });
      const mail = path.join(from, 'vmail/cur/1.eml');
      writeFileSync(mail, 'x', { mode: 0o600 });
      chownSync(mail, 5000, 5000);
      chownSync(path.join(from, 'vmail'), 5000, 5000);
      utimesSync(mail, new Date('2020-01-02T03:04:05Z'), new Date('2020-01-02T03:04:05Z'));
      mkdirSync(path.join(from, 'etc'));
      const conf = path.join(from, 'etc/db.zone');
      writeFileSync(conf, 'zone');
      utimesSync(conf, new Date('2020-01-02T03:04:05Z'), new Date('2020-01-02T03:04:05Z'));
      await syncTree(from, to, opts);
      const m = lstatSync(path.join(to, 'vmail/cur/1.eml'));
      expect([m.uid, m.gid, m.mode & 0o777, m.mtime.toISOString()]).toEqual([
        5000,
        5000,
        0o600,
        '2020-01-02T03:04:05.000Z',
      ]);
      expect(lstatSync(path.join(to, 'vmail')).uid).toBe(5000);
      expect(lstatSync(path.join(to, 'etc/db.zone')).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
      // A second sync finds nothing to do.
      expect((await syncTree(from, to, opts)).paths).toEqual([]);
    },
  );
});

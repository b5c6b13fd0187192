import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from './host.ts';
import { isMailroomFile } from './system-file-backup.ts';

const DEBIAN_MAIN_CF = `# See /usr/share/postfix/main.cf.dist for a commented, more complete version
smtpd_banner = $myhostname ESMTP $mail_name (Debian/GNU)
biff = no
`;

describe('backups of the system files Mailroom takes over', () => {
  let dir: string;
  let root: string;
  let backups: string;
  let host: Host;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-backup-'));
    root = path.join(dir, 'root');
    backups = path.join(dir, 'data', 'backups', 'system-files');
    host = new Host(root, false, backups);
    await fs.mkdir(path.join(root, 'etc/postfix'), { recursive: true });
    await fs.writeFile(path.join(root, 'etc/postfix/main.cf'), DEBIAN_MAIN_CF, { mode: 0o640 });
    await fs.chmod(path.join(root, 'etc/postfix/main.cf'), 0o640);
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const stamps = async () => (await fs.readdir(backups).catch(() => [] as string[])).sort();

  it('copies a file it did not write before the first replacement, once, with its mode', async () => {
    await host.commitFiles([{ path: '/etc/postfix/main.cf', content: DEBIAN_MAIN_CF + 'myhostname = mx\n' }]);
    const first = await stamps();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/);
    const copy = path.join(backups, first[0]!, 'etc/postfix/main.cf');
    expect(await fs.readFile(copy, 'utf8')).toBe(DEBIAN_MAIN_CF);
    expect((await fs.stat(copy)).mode & 0o777).toBe(0o640);
    expect((await fs.stat(backups)).mode & 0o777).toBe(0o700);
    expect(await fs.readFile(path.join(root, 'etc/postfix/main.cf'), 'utf8')).toContain('myhostname = mx');

    // The merged main.cf still starts with Debian's line, but it was backed up already: no new copy.
    await host.commitFiles([
      { path: '/etc/postfix/main.cf', content: DEBIAN_MAIN_CF + 'myhostname = mx2\n' },
    ]);
    expect(await stamps()).toEqual(first);
    expect(await fs.readFile(copy, 'utf8')).toBe(DEBIAN_MAIN_CF);
  });

  it('leaves alone new files and files carrying Mailroom’s mark', async () => {
    await fs.mkdir(path.join(root, 'etc/bind/mailroom'), { recursive: true });
    await fs.writeFile(
      path.join(root, 'etc/bind/mailroom/zones.conf'),
      '// Rendered by Mailroom from its database; edits here are overwritten.\n',
    );
    await host.commitFiles([
      { path: '/etc/bind/mailroom/zones.conf', content: '// Rendered by Mailroom from its database\n' },
      { path: '/etc/dovecot/conf.d/90-mailroom.conf', content: '# Managed by Mailroom\n' },
    ]);
    expect(await stamps()).toEqual([]);
  });

  it('takes no copy when the check refuses the new files (nothing is replaced)', async () => {
    const r = await host.commitFiles([{ path: '/etc/postfix/main.cf', content: 'broken' }], () =>
      Promise.resolve({ ok: false, output: 'postconf: fatal' }),
    );
    expect(r.ok).toBe(false);
    expect(await stamps()).toEqual([]);
    expect(await fs.readFile(path.join(root, 'etc/postfix/main.cf'), 'utf8')).toBe(DEBIAN_MAIN_CF);
  });

  it('copies nothing when the host has no backup folder', async () => {
    await new Host(root, false).commitFiles([{ path: '/etc/postfix/main.cf', content: 'x\n' }]);
    expect(await stamps()).toEqual([]);
  });

  it('recognises the first line of each kind of Mailroom file', () => {
    expect(isMailroomFile('# Managed by Mailroom: changes made here are replaced on the next save.\nx')).toBe(
      true,
    );
    expect(isMailroomFile('// Rendered by Mailroom from its database; edits here are overwritten.\n')).toBe(
      true,
    );
    expect(isMailroomFile('; Zone example.com: rendered by Mailroom from its database\n')).toBe(true);
    expect(isMailroomFile(DEBIAN_MAIN_CF)).toBe(false);
    expect(isMailroomFile('x = 1\n# Managed by Mailroom\n')).toBe(false);
  });
});

import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/host/host.ts';
import type { DaemonName } from '../../src/host/service-control.ts';
import { CONTROLLED_UNITS, controlCommand } from '../../src/features/system/services/services.service.ts';
import { SUDO, SYSTEM_UNITS, SystemServiceControl, SYSTEMCTL } from '../../src/host/system-services.ts';
import { APACHE_RELOAD, phpFpmReload } from '../../src/features/web/stack/apache-control.service.ts';

// The reloads through the real sudo with the real deploy/sudoers, as an unprivileged `mailroom`
// user. Nothing on the machine changes: inside a private mount namespace (unshare -m), copies of
// /etc/passwd, group and shadow with a mailroom user, and a sudoers.d holding only deploy/sudoers,
// are bind-mounted over the real ones; they vanish with the namespace. There is no systemd here,
// so an allowed command gets as far as systemctl ("not booted with systemd"); a refused one is
// stopped by sudo itself ("a password is required").
const ROOT = path.resolve(import.meta.dirname, '../../..');
const requireAll = process.env.MAILROOM_REQUIRE_ALL === '1';

function why(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root';
  if (!existsSync(SUDO) || !existsSync('/usr/sbin/visudo')) {
    const msg = 'sudo missing (Debian package: sudo)';
    if (requireAll) throw new Error(`${msg} and MAILROOM_REQUIRE_ALL=1`);
    return msg;
  }
  for (const p of ['/usr/bin/unshare', '/usr/bin/setpriv'])
    if (!existsSync(p)) return `${p} missing (Debian package: util-linux)`;
  const probe = spawnSync('/usr/bin/unshare', ['-m', '--propagation', 'private', 'true']);
  if (probe.status !== 0)
    return 'no mount namespaces here (unshare -m refused: the container lacks CAP_SYS_ADMIN)';
  return null;
}
const skipReason = why();
if (skipReason) process.stderr.write(`\n!!! sudo reload test SKIPPED: ${skipReason} !!!\n\n`);

const UID = 64990;

describe.skipIf(skipReason !== null)('reloads through sudo with deploy/sudoers, as the mailroom user', () => {
  let dir: string;
  let wrapper: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sudo-'));
    chmodSync(dir, 0o755);
    const add = (file: string, line: string) =>
      writeFileSync(
        path.join(dir, file),
        readFileSync(`/etc/${file}`, 'utf8').replace(/\n?$/, '\n') + line + '\n',
      );
    add('passwd', `mailroom:x:${UID}:${UID}::/nonexistent:/usr/sbin/nologin`);
    add('group', `mailroom:x:${UID}:`);
    add('shadow', 'mailroom:!:19000::::::');
    mkdirSync(path.join(dir, 'sudoers.d'));
    copyFileSync(path.join(ROOT, 'deploy/sudoers'), path.join(dir, 'sudoers.d/mailroom'));
    chmodSync(path.join(dir, 'sudoers.d/mailroom'), 0o440);
    wrapper = path.join(dir, 'as-mailroom.sh');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'set -e',
        ...['passwd', 'group', 'shadow', 'sudoers.d'].map((f) => `mount --bind ${dir}/${f} /etc/${f}`),
        `exec setpriv --reuid=${UID} --regid=${UID} --clear-groups "$@"`,
        '',
      ].join('\n'),
    );
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a command as mailroom inside a throwaway mount namespace. */
  const asMailroom = (cmd: string, args: string[]): Promise<RunResult> =>
    new Promise((resolve) => {
      const child = spawn(
        '/usr/bin/unshare',
        ['-m', '--propagation', 'private', '/bin/sh', wrapper, cmd, ...args],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });

  it('sudo lets through exactly the reload SystemServiceControl sends, for each daemon', async () => {
    const control = new SystemServiceControl({
      run: asMailroom,
      sudo: true,
      // The daemons run (systemd does not answer here, so reloads look at the process table).
      listProcesses: () =>
        Promise.resolve(
          Object.values(SYSTEM_UNITS).map((u, i) => ({ pid: 1000 + i, name: u.comm, cmdline: u.cmdline })),
        ),
    });
    for (const d of Object.keys(SYSTEM_UNITS) as DaemonName[]) {
      const r = await control.reload(d);
      expect(r.attempted, r.output).toBe(true);
      // sudo ran systemctl (which finds no systemd here): not refused by sudo.
      expect(r.output).not.toMatch(/password is required|not allowed|sudo refused/);
      expect(r.output).toMatch(/systemd|bus/i);
    }
  });

  it('sudo lets through every start, stop and restart the Services table sends', async () => {
    for (const unit of CONTROLLED_UNITS)
      for (const action of ['start', 'stop', 'restart'] as const) {
        const [cmd, ...args] = controlCommand(unit, action, true);
        const r = await asMailroom(cmd!, args);
        // sudo ran systemctl (which finds no systemd here): not refused by sudo.
        expect(r.stderr, `${action} ${unit}`).not.toMatch(/password is required|not allowed/);
        expect(r.stdout + r.stderr, `${action} ${unit}`).toMatch(/systemd|bus/i);
      }
  });

  it('sudo lets through the web reloads: Apache and the PHP-FPM pools of an installed version', async () => {
    for (const args of [[...APACHE_RELOAD], [...phpFpmReload('8.2')], [...phpFpmReload('7.4')]]) {
      const r = await asMailroom(SUDO, ['-n', ...args]);
      expect(r.stderr, args.join(' ')).not.toMatch(/password is required|not allowed/);
      expect(r.stdout + r.stderr, args.join(' ')).toMatch(/systemd|bus/i);
    }
  });

  it('sudo refuses anything else: another verb, another unit, a shell', async () => {
    for (const args of [
      ['-n', SYSTEMCTL, 'restart', 'mailroom.service'],
      ['-n', SYSTEMCTL, 'restart', 'ssh.service'],
      ['-n', SYSTEMCTL, 'stop', 'php8.2-fpm.service'],
      ['-n', SYSTEMCTL, 'reload', 'php8.2-fpm.service', 'ssh.service'],
      ['-n', SYSTEMCTL, 'reload', 'phpx-fpm.service'],
      ['-n', SYSTEMCTL, 'reload', 'apache2.service', 'ssh.service'],
      ['-n', SYSTEMCTL, 'kill', 'postfix.service'],
      ['-n', SYSTEMCTL, 'restart', 'postfix.service', 'ssh.service'],
      ['-n', SYSTEMCTL, 'reload', 'ssh.service'],
      ['-n', SYSTEMCTL, 'reload', 'postfix.service', 'ssh.service'],
      ['-n', '/bin/sh', '-c', 'id'],
    ]) {
      const r = await asMailroom(SUDO, args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain('a password is required');
    }
  });
});

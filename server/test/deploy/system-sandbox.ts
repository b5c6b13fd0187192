import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A system-mode sandbox: Mailroom run as an unprivileged `mailroom` user with MAILROOM_ROOT=/, in a
 * private mount namespace where /etc is a throwaway copy of this machine's /etc (Debian's stock
 * Postfix and Dovecot files included), read-only except the unit's ReadWritePaths, prepared the
 * way docs/install.md says (folders, ACLs). The machine's own files are never written.
 */
export interface Sandbox {
  dir: string;
  /** The copy of /etc that the namespace sees as /etc. */
  etc: string;
  dataDir: string;
  uid: number;
  /** `/bin/sh <wrapper> <cmd> <args…>` runs a command as mailroom inside a new namespace. */
  wrapper: string;
  /** The same namespace, the command run as root. */
  rootWrapper: string;
  cleanup(): void;
}

export const SANDBOX_UID = 64991;

/** Why the sandbox cannot be made here, or null. */
export function sandboxSkipReason(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root';
  for (const [p, pkg] of [
    ['/usr/bin/unshare', 'util-linux'],
    ['/usr/bin/setpriv', 'util-linux'],
    ['/usr/bin/setfacl', 'acl'],
    ['/usr/sbin/postconf', 'postfix'],
  ] as const) {
    if (!existsSync(p)) {
      const msg = `${p} missing (Debian package: ${pkg})`;
      if (process.env.MAILROOM_REQUIRE_ALL === '1') throw new Error(`${msg} and MAILROOM_REQUIRE_ALL=1`);
      return msg;
    }
  }
  if (!existsSync('/etc/postfix/main.cf'))
    return "Debian's /etc/postfix/main.cf is missing (reinstall postfix)";
  const probe = spawnSync('/usr/bin/unshare', ['-m', '--propagation', 'private', 'true']);
  if (probe.status !== 0)
    return 'no mount namespaces here (unshare -m refused: the container lacks CAP_SYS_ADMIN)';
  return null;
}

function must(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

/** `unitWritable`: the unit's ReadWritePaths (leading `-` allowed). */
export function makeSandbox(unitWritable: string[]): Sandbox {
  const uid = SANDBOX_UID;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-system-'));
  chmodSync(dir, 0o755);
  const etc = path.join(dir, 'etc');
  must('cp', ['-a', '/etc', etc]);
  appendFileSync(path.join(etc, 'passwd'), `mailroom:x:${uid}:${uid}::/nonexistent:/usr/sbin/nologin\n`);
  appendFileSync(path.join(etc, 'group'), `mailroom:x:${uid}:\n`);
  appendFileSync(path.join(etc, 'shadow'), 'mailroom:!:19000::::::\n');

  // docs/install.md, step 7, word for word on the copy: the folders, and the mailroom group's ACLs.
  for (const d of ['postfix/mailroom', 'bind/mailroom', 'mailroom/tls', 'rspamd/local.d', 'rspamd/mailroom'])
    mkdirSync(path.join(etc, d), { recursive: true, mode: 0o755 });
  const cacheBind = path.join(dir, 'cache-bind');
  mkdirSync(cacheBind);
  const rspamdLib = path.join(dir, 'rspamd-lib');
  mkdirSync(path.join(rspamdLib, 'dkim'), { recursive: true });
  const e = (p: string) => path.join(etc, p);
  must('setfacl', ['-m', `g:${uid}:rwx`, e('postfix'), e('dovecot'), e('dovecot/conf.d'), cacheBind]);
  for (const f of ['dovecot/dovecot-sql.conf.ext', 'dovecot/dovecot-dict-sql.conf.ext'])
    if (existsSync(e(f))) must('setfacl', ['-m', `g:${uid}:r`, e(f)]);
  must('setfacl', [
    '-R',
    '-m',
    `g:${uid}:rwX`,
    '-m',
    `d:g:${uid}:rwX`,
    e('postfix/mailroom'),
    e('bind/mailroom'),
    e('mailroom/tls'),
    e('rspamd/local.d'),
    e('rspamd/mailroom'),
    path.join(rspamdLib, 'dkim'),
  ]);
  // Versions that sign with OpenDKIM write under /etc/opendkim (with rspamd: /var/lib/rspamd/dkim).
  mkdirSync(e('opendkim'), { mode: 0o755 });
  must('setfacl', ['-R', '-m', `g:${uid}:rwX`, '-m', `d:g:${uid}:rwX`, e('opendkim')]);
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp);
  chmodSync(tmp, 0o1777);

  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  chownSync(dataDir, uid, uid);
  chmodSync(dataDir, 0o2770);

  // ProtectSystem=strict: the whole file system read-only (in this namespace only), except the
  // unit's ReadWritePaths under /etc that exist, and throwaway folders for the rest.
  const holes = unitWritable
    .map((p) => p.replace(/^-/, ''))
    .filter((p) => p.startsWith('/etc/') && existsSync(path.join(etc, p.slice('/etc/'.length))));
  const wrapper = path.join(dir, 'as-mailroom.sh');
  const rootWrapper = path.join(dir, 'as-root.sh');
  const setup = [
    '#!/bin/sh',
    'set -e',
    `mount --bind ${etc} /etc`,
    `mount --bind ${cacheBind} /var/cache/bind`,
    ...(existsSync('/var/lib/rspamd') ? [`mount --bind ${rspamdLib} /var/lib/rspamd`] : []),
    ...holes.map((h) => `mount --bind ${h} ${h}`),
    `mount --bind ${dir} ${dir}`,
    'mount -o remount,bind,ro /etc',
    'mount -o remount,bind,ro /',
    'cd /',
    `export TMPDIR=${tmp}`,
  ];
  writeFileSync(
    wrapper,
    [...setup, `exec setpriv --reuid=${uid} --regid=${uid} --init-groups "$@"`, ''].join('\n'),
  );
  writeFileSync(rootWrapper, [...setup, 'exec "$@"', ''].join('\n'));
  return {
    dir,
    etc,
    dataDir,
    uid,
    wrapper,
    rootWrapper,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

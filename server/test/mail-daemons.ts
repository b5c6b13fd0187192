import { type ChildProcess, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './postgres-cluster.ts';
import { rspamdLaunchFor } from '../src/features/mail/stack/mail-filter.service.ts';
import type { Host } from '../src/host/host.ts';

/**
 * Starts Postfix and Dovecot on the files Mailroom rendered under a host root, unedited, exactly
 * as an operator (or Mailroom's supervisor) would: `postfix -c <root>/etc/postfix start` and
 * `dovecot -F -c <root>/etc/dovecot/dovecot.conf`; and rspamd (the milter) from the launch line
 * Mailroom gives its supervisor. Stops them by pid.
 */

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
export const which = (cmd: string) =>
  BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;

/** Debian packages the real mail flow needs that are missing here. */
export function missingMailPackages(dialect: string): string[] {
  const missing: string[] = [];
  if (!which('postfix')) missing.push('postfix');
  if (!which('dovecot')) missing.push('dovecot-core');
  if (!existsSync('/usr/lib/dovecot/imap')) missing.push('dovecot-imapd');
  if (!existsSync('/usr/lib/dovecot/lmtp')) missing.push('dovecot-lmtpd');
  if (!which('openssl')) missing.push('openssl');
  const maps = which('postconf') ? spawnSync(which('postconf')!, ['-m'], { encoding: 'utf8' }).stdout : '';
  const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  if (!new RegExp(`^${type}$`, 'm').test(maps)) missing.push(`postfix-${type}`);
  if (!existsSync(`/usr/lib/dovecot/modules/libdriver_${type}.so`)) missing.push(`dovecot-${type}`);
  return missing;
}

export async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, ms: number, log: () => string) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopPid(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

export interface MailDaemons {
  postfixPid: number;
  dovecot: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/** `root`: the host root Mailroom rendered into; ports: where the rendered files listen. */
export async function startMailDaemons(
  root: string,
  ports: { smtp: number; submission: number; imap: number },
  queueDir = path.join(root, 'var/spool/postfix'),
): Promise<MailDaemons> {
  const mailLog = path.join(root, 'var/log/mail.log');
  const readLog = () =>
    existsSync(mailLog) ? readFileSync(mailLog, 'utf8').split('\n').slice(-60).join('\n') : '';
  let dovecotErr = '';
  const dovecot = spawn(which('dovecot')!, ['-F', '-c', path.join(root, 'etc/dovecot/dovecot.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  dovecot.stderr?.on('data', (d: Buffer) => (dovecotErr += d.toString()));
  const log = () => `dovecot: ${dovecotErr}\nmail.log:\n${readLog()}`;
  let postfixPid = 0;
  try {
    await waitFor(
      'dovecot',
      async () => {
        if (dovecot.exitCode !== null) throw new Error(`dovecot exited: ${log()}`);
        return (await portOpen(ports.imap)) && existsSync(path.join(queueDir, 'private/dovecot-lmtp'));
      },
      20_000,
      log,
    );
    const start = spawnSync(which('postfix')!, ['-c', path.join(root, 'etc/postfix'), 'start'], {
      encoding: 'utf8',
    });
    if (start.status !== 0) throw new Error(`postfix start failed: ${start.stderr}\n${log()}`);
    const pidFile = path.join(queueDir, 'pid/master.pid');
    await waitFor('postfix', () => existsSync(pidFile), 20_000, log);
    postfixPid = Number(readFileSync(pidFile, 'utf8').trim());
    await waitFor('postfix smtp', () => portOpen(ports.smtp), 20_000, log);
    await waitFor('postfix submission', () => portOpen(ports.submission), 20_000, log);
  } catch (err) {
    if (postfixPid) await stopPid(postfixPid);
    if (dovecot.pid) await stopPid(dovecot.pid);
    throw err;
  }
  return {
    postfixPid,
    dovecot,
    log,
    async stop() {
      await stopPid(postfixPid);
      if (dovecot.pid) await stopPid(dovecot.pid);
    },
  };
}

export interface RspamdDaemon {
  pid: number;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts rspamd on the files Mailroom rendered under `host` (its launch line and `prepare()`, as
 * the supervisor does) and waits until the milter answers on `milterPort`. As root its workers
 * run as _rspamd: every folder above the host root must let others pass (the caller's business).
 */
export async function startRspamd(host: Host, milterPort: number, ms = 90_000): Promise<RspamdDaemon> {
  const launch = await rspamdLaunchFor(host);
  if (!launch) throw new Error('rspamd is not installed (Debian package: rspamd)');
  await launch.prepare();
  let out = '';
  const child = spawn(launch.command, launch.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const fileLog = host.path('/var/log/rspamd/rspamd.log');
  const log = () =>
    `rspamd (exit ${child.exitCode}): ${out.slice(-4000)}\nrspamd.log:\n${
      existsSync(fileLog) ? readFileSync(fileLog, 'utf8').split('\n').slice(-40).join('\n') : ''
    }`;
  try {
    await waitFor(
      'rspamd milter',
      async () => {
        if (child.exitCode !== null) throw new Error(`rspamd exited: ${log()}`);
        return portOpen(milterPort);
      },
      ms,
      log,
    );
  } catch (err) {
    if (child.pid) await stopPid(child.pid);
    throw err;
  }
  return {
    pid: child.pid!,
    log,
    async stop() {
      if (child.exitCode === null && child.pid) await stopPid(child.pid);
    },
  };
}

/** Debian packages a Dovecot of a test's own (IMAP, doveadm, the dialect's SQL driver) needs that are missing. */
export function missingDovecotPackages(dialect: string): string[] {
  const missing: string[] = [];
  if (!which('dovecot') || !which('doveadm')) missing.push('dovecot-core');
  if (!existsSync('/usr/lib/dovecot/imap')) missing.push('dovecot-imapd');
  const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  if (!existsSync(`/usr/lib/dovecot/modules/libdriver_${type}.so`)) missing.push(`dovecot-${type}`);
  return missing;
}

export interface ImapDovecot {
  /** The test's dovecot.conf (it includes Mailroom's rendered file). */
  conf: string;
  imapPort: number;
  /** `doveadm -c <conf> …` */
  doveadm(args: string[]): SpawnSyncReturns<string>;
  /** Stops Dovecot by pid and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a Dovecot of the test's own, IMAP only on a free port, around the configuration Mailroom
 * rendered (`include`: passdb/userdb SQL, quota dictionary, mail location), as the mail user
 * Mailroom's local-mode setup made (vmail, as root). `vmail` is the rendered mail folder, below
 * `dataDir` (the test's data folder: as root each folder between them lets the mail user pass).
 * Failed logins are answered at once, without Dovecot's growing penalty.
 */
export async function startImapDovecot(opts: {
  include: string;
  vmail: string;
  dataDir: string;
}): Promise<ImapDovecot> {
  const isRoot = process.getuid?.() === 0;
  const work = mkdtempSync(path.join(os.tmpdir(), 'mailroom-dovecot-'));
  const imapPort = await freePort();
  const me = os.userInfo();
  const group = spawnSync('id', ['-gn'], { encoding: 'utf8' }).stdout.trim();
  // Dovecot refuses to run login processes or mail access as root; as root we use dovenull/nobody.
  const loginUser = isRoot
    ? spawnSync('id', ['dovenull']).status === 0
      ? 'dovenull'
      : 'nobody'
    : me.username;
  const idOf = (flag: string) => Number(spawnSync('id', [flag, 'vmail'], { encoding: 'utf8' }).stdout.trim());
  const mailUid = isRoot ? idOf('-u') : me.uid;
  const mailGid = isRoot ? idOf('-g') : me.gid;
  mkdirSync(opts.vmail, { recursive: true });
  if (isRoot) {
    // The mail user must reach the mail folder and the dict socket under the (0700) test folders.
    chmodSync(work, 0o755);
    for (let d = opts.vmail; d.startsWith(opts.dataDir); d = path.dirname(d)) chmodSync(d, 0o755);
    chownSync(opts.vmail, mailUid, mailGid);
  }
  const conf = path.join(work, 'dovecot.conf');
  writeFileSync(
    conf,
    [
      `base_dir = ${work}/run`,
      `state_dir = ${work}/state`,
      `log_path = ${work}/dovecot.log`,
      'protocols = imap',
      'listen = 127.0.0.1',
      `default_internal_user = ${me.username}`,
      `default_internal_group = ${group}`,
      `default_login_user = ${loginUser}`,
      `!include ${opts.include}`,
      `mail_uid = ${mailUid}`,
      `mail_gid = ${mailGid}`,
      'first_valid_uid = 1',
      // Failed logins are answered at once here (the default waits 2 s).
      'auth_failure_delay = 0',
      'service imap-login {',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${imapPort}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      // No growing delay after failed logins (Dovecot's auth penalty): tests fail some on purpose.
      'service anvil {',
      '  unix_listener anvil-auth-penalty {',
      '    mode = 0',
      '  }',
      '}',
      'service dict {',
      '  unix_listener dict {',
      '    mode = 0666',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const remove = () => rmSync(work, { recursive: true, force: true });
  const check = spawnSync(which('doveconf')!, ['-c', conf, '-n'], { encoding: 'utf8' });
  if (check.status !== 0) {
    remove();
    throw new Error(`doveconf refused the test's dovecot.conf: ${check.stderr}`);
  }
  const dovecot = spawn(which('dovecot')!, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  dovecot.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (dovecot.pid) await stopPid(dovecot.pid);
    remove();
  };
  try {
    await waitFor(
      'dovecot',
      async () => {
        if (dovecot.exitCode !== null) throw new Error(`dovecot exited: ${stderr}`);
        return existsSync(path.join(work, 'run/auth-client')) && (await portOpen(imapPort));
      },
      20_000,
      () => stderr,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    conf,
    imapPort,
    doveadm: (args) => spawnSync(which('doveadm')!, ['-c', conf, ...args], { encoding: 'utf8' }),
    stop,
  };
}

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { freePort } from '../postgres-cluster.ts';
import { skipLoudly } from '../skip-loudly.ts';

// ---- what this test needs from the machine -------------------------------------------------

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;
const postconfMaps = () =>
  which('postconf') ? spawnSync(which('postconf')!, ['-m'], { encoding: 'utf8' }).stdout : '';
const dovecotModule = (name: string) => existsSync(`/usr/lib/dovecot/modules/${name}`);

function missingFor(dialect: string): string[] {
  const missing: string[] = [];
  if (!which('dovecot') || !which('doveadm')) missing.push('dovecot-core');
  if (!existsSync('/usr/lib/dovecot/imap')) missing.push('dovecot-imapd');
  if (!which('postmap')) missing.push('postfix');
  if (!which('openssl')) missing.push('openssl');
  const maps = postconfMaps();
  if (dialect === 'sqlite') {
    if (!/\bsqlite\b/.test(maps)) missing.push('postfix-sqlite');
    if (!dovecotModule('libdriver_sqlite.so')) missing.push('dovecot-sqlite');
  } else {
    if (!/\bpgsql\b/.test(maps)) missing.push('postfix-pgsql');
    if (!dovecotModule('libdriver_pgsql.so')) missing.push('dovecot-pgsql');
  }
  return missing;
}

// ---- a raw IMAP client ----------------------------------------------------------------------

class Imap {
  private buf = '';
  private waiters: (() => void)[] = [];
  private constructor(private readonly sock: net.Socket) {
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      this.buf += d;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async connect(port: number): Promise<Imap> {
    const sock = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      sock.once('connect', resolve);
      sock.once('error', reject);
    });
    const c = new Imap(sock);
    await c.until((b) => /\r\n/.test(b));
    c.buf = '';
    return c;
  }

  private async until(done: (buf: string) => boolean, ms = 15_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(this.buf)) {
      if (Date.now() > deadline) throw new Error(`IMAP timeout; got: ${this.buf}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
    return this.buf;
  }

  /** Sends a tagged command; answers the tagged status line (OK/NO/BAD …). */
  async command(tag: string, line: string, literal?: string): Promise<string> {
    this.buf = '';
    if (literal === undefined) this.sock.write(`${tag} ${line}\r\n`);
    else {
      this.sock.write(`${tag} ${line} {${Buffer.byteLength(literal)}}\r\n`);
      await this.until((b) => b.startsWith('+'));
      this.buf = '';
      this.sock.write(literal + '\r\n');
    }
    const out = await this.until((b) => new RegExp(`^${tag} `, 'm').test(b));
    return out.split('\r\n').find((l) => l.startsWith(`${tag} `))!;
  }

  close(): void {
    this.sock.destroy();
  }
}

async function imapLogin(port: number, user: string, password: string): Promise<string> {
  const c = await Imap.connect(port);
  try {
    return await c.command('a1', `LOGIN "${user}" "${password}"`);
  } finally {
    c.close();
  }
}

// ---- the test ------------------------------------------------------------------------------

describe.each(dialects())('the real mail stack on %s', (dialect) => {
  const missing = missingFor(dialect);
  if (missing.length) {
    const msg = `Debian package(s) missing: ${missing.join(', ')}: mail stack integration test on ${dialect} is SKIPPED`;
    skipLoudly(msg);
    it.skip(msg, () => undefined);
    return;
  }

  let t: TestContext;
  let work: string;
  let conf: string;
  let imapPort: number;
  let dovecot: ChildProcess | null = null;
  let appClosed = false;
  const isRoot = process.getuid?.() === 0;

  const doveadm = (args: string[]) =>
    spawnSync(which('doveadm')!, ['-c', conf, ...args], { encoding: 'utf8' });
  const authTest = (user: string, password: string) => doveadm(['auth', 'test', user, password]);
  const postmapQ = (key: string, table: string) => {
    const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
    const r = spawnSync(
      which('postmap')!,
      ['-q', key, `${type}:${t.deps.host.path(`/etc/postfix/mailroom/${table}.cf`)}`],
      {
        encoding: 'utf8',
      },
    );
    if (/fatal|error/i.test(r.stderr)) throw new Error(`postmap failed: ${r.stderr}`);
    return r.status === 0 ? r.stdout.trim() : null;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    // The files are rendered beside the start; reading the settings waits for them.
    const settings = await t.call({ method: 'GET', url: '/api/mail/settings' });
    expect(settings.json().check).toMatchObject({ ok: true });
    work = mkdtempSync(path.join(os.tmpdir(), 'mailroom-dovecot-'));
    imapPort = await freePort();
    const me = os.userInfo();
    const group = spawnSync('id', ['-gn'], { encoding: 'utf8' }).stdout.trim();
    // Dovecot refuses to run login processes or mail access as root; as root we use dovenull/nobody.
    const loginUser = isRoot
      ? spawnSync('id', ['dovenull']).status === 0
        ? 'dovenull'
        : 'nobody'
      : me.username;
    // As root Mailroom's local-mode setup made the vmail user and gave it the mail folder.
    const idOf = (flag: string) =>
      Number(spawnSync('id', [flag, 'vmail'], { encoding: 'utf8' }).stdout.trim());
    const mailUid = isRoot ? idOf('-u') : me.uid;
    const mailGid = isRoot ? idOf('-g') : me.gid;
    const vmail = t.deps.host.path('/var/vmail');
    mkdirSync(vmail, { recursive: true });
    if (isRoot) {
      // The mail user must reach /var/vmail and the dict socket under the (0700) test folders.
      chmodSync(work, 0o755);
      for (let d = vmail; d.startsWith(t.dataDir); d = path.dirname(d)) chmodSync(d, 0o755);
      chownSync(vmail, mailUid, mailGid);
    }
    conf = path.join(work, 'dovecot.conf');
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
        // What Mailroom rendered: passdb/userdb SQL, quota dictionary, mail location, TLS.
        `!include ${t.deps.host.path('/etc/dovecot/conf.d/90-mailroom.conf')}`,
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
        // No growing delay after failed logins (Dovecot's auth penalty): this test fails some on purpose.
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
    const check = spawnSync(which('doveconf')!, ['-c', conf, '-n'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    dovecot = spawn(which('dovecot')!, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dovecot.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      const up =
        existsSync(path.join(work, 'run/auth-client')) &&
        (await new Promise<boolean>((resolve) => {
          const s = net.connect(imapPort, '127.0.0.1', () => {
            s.end();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        }));
      if (up) break;
      if (dovecot.exitCode !== null || Date.now() > deadline)
        throw new Error(`dovecot did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (dovecot && dovecot.exitCode === null && dovecot.pid) {
      const exited = new Promise((r) => dovecot!.once('exit', r));
      process.kill(dovecot.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    if (appClosed) rmSync(t.dataDir, { recursive: true, force: true });
    else await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('a mailbox created through the API signs in with doveadm auth test; a wrong password fails', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: {
        createDomain: true,
        email: 'Alice@Example.com',
        password: 'alice-secret-1',
        quota: 50 * 1024 * 1024,
      },
    });
    expect(res.statusCode).toBe(200);
    const ok = authTest('alice@example.com', 'alice-secret-1');
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('auth succeeded');
    const bad = authTest('alice@example.com', 'wrong-password');
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain('auth failed');
    // userdb: home under the host root's /var/vmail, the quota rule from the mailbox.
    const user = doveadm(['user', 'alice@example.com']);
    expect(user.stdout).toContain(`home\t${t.deps.host.path('/var/vmail')}/example.com/alice/`);
    expect(user.stdout).toContain(`quota_rule\t*:bytes=${50 * 1024 * 1024}`);
  });

  it('Dovecot on a loopback port accepts an IMAP LOGIN, and its quota dictionary feeds "Used"', async () => {
    const c = await Imap.connect(imapPort);
    try {
      expect(await c.command('a1', 'LOGIN "alice@example.com" "alice-secret-1"')).toMatch(/^a1 OK/);
      const message =
        'From: bob@example.net\r\nTo: alice@example.com\r\nSubject: hello\r\n\r\n' +
        'x'.repeat(2000) +
        '\r\n';
      expect(await c.command('a2', 'APPEND INBOX', message)).toMatch(/^a2 OK/);
      await c.command('a3', 'LOGOUT');
    } finally {
      c.close();
    }
    expect(await imapLogin(imapPort, 'alice@example.com', 'not-her-password')).toMatch(/^a1 NO/);
    // Dovecot writes the usage through its dict process: wait for it to land.
    let alice = { used: 0 };
    for (let i = 0; i < 50 && alice.used === 0; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      alice = (await t.call({ method: 'GET', url: '/api/mail/users?q=alice' })).json()[0];
    }
    expect(alice.used).toBeGreaterThan(2000);
    expect(alice.used).toBeLessThan(4000);
  });

  it('a suspended mailbox cannot sign in nor receive; resumed, it can again', async () => {
    expect(postmapQ('alice@example.com', 'virtual-mailboxes')).toBe('example.com/alice/');
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/suspend/alice@example.com' })).statusCode,
    ).toBe(200);
    expect(authTest('alice@example.com', 'alice-secret-1').status).not.toBe(0);
    expect(await imapLogin(imapPort, 'alice@example.com', 'alice-secret-1')).toMatch(/^a1 NO/);
    expect(postmapQ('alice@example.com', 'virtual-mailboxes')).toBeNull();
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/resume/alice@example.com' })).statusCode,
    ).toBe(200);
    expect(authTest('alice@example.com', 'alice-secret-1').status).toBe(0);
    expect(postmapQ('alice@example.com', 'virtual-mailboxes')).toBe('example.com/alice/');
  });

  it('a changed password takes effect at once', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/users/password/alice@example.com',
      payload: { password: 'alice-secret-2' },
    });
    expect(res.statusCode).toBe(200);
    expect(authTest('alice@example.com', 'alice-secret-1').status).not.toBe(0);
    expect(authTest('alice@example.com', 'alice-secret-2').status).toBe(0);
  });

  it('an alias resolves with postmap -q; a disabled or removed one does not', async () => {
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/mail/aliases/add',
          payload: {
            createDomain: true,
            source: 'info@example.com',
            destination: 'alice@example.com, ext@example.net',
          },
        })
      ).statusCode,
    ).toBe(200);
    expect(postmapQ('info@example.com', 'virtual-aliases')).toBe('alice@example.com,ext@example.net');
    expect(postmapQ('INFO@EXAMPLE.COM', 'virtual-aliases')).toBe('alice@example.com,ext@example.net');
    expect(postmapQ('example.com', 'virtual-domains')).toBe('example.com');
    expect(postmapQ('example.org', 'virtual-domains')).toBeNull();
    await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/info@example.com',
      payload: { status: 'disabled' },
    });
    expect(postmapQ('info@example.com', 'virtual-aliases')).toBeNull();
    await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/info@example.com',
      payload: { status: 'active' },
    });
    expect(postmapQ('info@example.com', 'virtual-aliases')).toBe('alice@example.com,ext@example.net');
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/mail/aliases/add',
          payload: { createDomain: true, source: 'gone@example.com', destination: 'alice@example.com' },
        })
      ).statusCode,
    ).toBe(200);
    expect(postmapQ('gone@example.com', 'virtual-aliases')).toBe('alice@example.com');
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/aliases/remove/gone@example.com' })).statusCode,
    ).toBe(200);
    expect(postmapQ('gone@example.com', 'virtual-aliases')).toBeNull();
  });

  it('after Mailroom stops, lookups and logins still work', async () => {
    await t.app.close();
    await t.deps.database.close();
    appClosed = true;
    expect(postmapQ('info@example.com', 'virtual-aliases')).toBe('alice@example.com,ext@example.net');
    expect(postmapQ('alice@example.com', 'virtual-mailboxes')).toBe('example.com/alice/');
    expect(authTest('alice@example.com', 'alice-secret-2').status).toBe(0);
    expect(await imapLogin(imapPort, 'alice@example.com', 'alice-secret-2')).toMatch(/^a1 OK/);
  });
});

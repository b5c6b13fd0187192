import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMailRole, mailRoleUrl } from '../../src/db/mail-role.ts';
import {
  appPasswordSqlConf,
  renderDovecotAppPasswordSql,
  renderDovecotSql,
} from '../../src/features/mail/dovecot.renderer.ts';
import { mailDbConn } from '../../src/features/mail/mail-db-conn.ts';
import { dovecotPaths } from '../../src/features/mail/mail-stack.ts';
import { MAIL_PATHS } from '../../src/features/mail/mail-paths.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { imapLogin } from '../mail-clients.ts';
import { freePort } from '../postgres-cluster.ts';
import { skipLoudly } from '../skip-loudly.ts';

// A mailbox with MFA on signs in to IMAP/POP3/SMTP with its app passwords only: proved against
// the real Dovecot reading the rendered passdb (on PostgreSQL through the least-privilege role).

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;
const dovecotModule = (name: string) => existsSync(`/usr/lib/dovecot/modules/${name}`);

function missingFor(dialect: string): string[] {
  const missing: string[] = [];
  if (!which('dovecot') || !which('doveadm')) missing.push('dovecot-core');
  if (!existsSync('/usr/lib/dovecot/imap')) missing.push('dovecot-imapd');
  if (!dovecotModule(dialect === 'sqlite' ? 'libdriver_sqlite.so' : 'libdriver_pgsql.so'))
    missing.push(dialect === 'sqlite' ? 'dovecot-sqlite' : 'dovecot-pgsql');
  return missing;
}

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

describe.each(dialects())('app passwords and MFA in Dovecot on %s', (dialect) => {
  const missing = missingFor(dialect);
  if (missing.length) {
    const msg = `Debian package(s) missing: ${missing.join(', ')}: Dovecot app password test on ${dialect} is SKIPPED`;
    skipLoudly(msg);
    it.skip(msg, () => undefined);
    return;
  }

  let t: TestContext;
  let work: string;
  let conf: string;
  let imapPort: number;
  let dovecot: ChildProcess | null = null;
  let userKey = '';
  let appPassword = '';
  const isRoot = process.getuid?.() === 0;
  const EMAIL = 'carol@example.com';
  const MAIN = 'carol-main-secret-1';

  const authTest = (user: string, password: string) =>
    spawnSync(which('doveadm')!, ['-c', conf, 'auth', 'test', user, password], { encoding: 'utf8' });
  const accepted = (user: string, password: string) => {
    const r = authTest(user, password);
    if (r.status !== 0 && !r.stdout.includes('auth failed')) throw new Error(r.stdout + r.stderr);
    return r.status === 0;
  };
  const asUser = (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${userKey}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    expect((await t.call({ method: 'GET', url: '/api/mail/settings' })).json().check).toMatchObject({
      ok: true,
    });
    if (dialect === 'postgres') {
      // Dovecot connects as the mail role, which reads only the lookup views.
      const role = `mr_app_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
      const password = `role-pass-${Math.floor(Math.random() * 1e9)}`;
      await ensureMailRole(t.deps.database.db, { role, password });
      const conn = mailDbConn(t.deps.database, mailRoleUrl(t.deps.database.postgresUrl!, role, password));
      const dp = dovecotPaths(t.deps.host, conn);
      writeFileSync(t.deps.host.path(MAIL_PATHS.dovecotSql), renderDovecotSql(conn, dp));
      writeFileSync(
        t.deps.host.path(appPasswordSqlConf(MAIL_PATHS.dovecotSql)),
        renderDovecotAppPasswordSql(conn),
      );
    }
    work = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apppw-'));
    imapPort = await freePort();
    const me = os.userInfo();
    const group = spawnSync('id', ['-gn'], { encoding: 'utf8' }).stdout.trim();
    const loginUser = isRoot
      ? spawnSync('id', ['dovenull']).status === 0
        ? 'dovenull'
        : 'nobody'
      : me.username;
    const idOf = (flag: string) =>
      Number(spawnSync('id', [flag, 'vmail'], { encoding: 'utf8' }).stdout.trim());
    const mailUid = isRoot ? idOf('-u') : me.uid;
    const mailGid = isRoot ? idOf('-g') : me.gid;
    const vmail = t.deps.host.path('/var/vmail');
    mkdirSync(vmail, { recursive: true });
    if (isRoot) {
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
        // What Mailroom rendered: the two passdbs (app passwords, then the main password), userdb...
        `!include ${t.deps.host.path(MAIL_PATHS.dovecotMailroom)}`,
        `mail_uid = ${mailUid}`,
        `mail_gid = ${mailGid}`,
        'first_valid_uid = 1',
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
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: EMAIL, password: MAIN, quota: 10 * 1024 * 1024 },
    });
    expect(res.statusCode).toBe(200);
  });

  afterAll(async () => {
    if (dovecot && dovecot.exitCode === null && dovecot.pid) {
      const exited = new Promise((r) => dovecot!.once('exit', r));
      process.kill(dovecot.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('without MFA the main password signs in, and an app password too', async () => {
    expect(accepted(EMAIL, MAIN)).toBe(true);
    expect(accepted(EMAIL, 'not-the-password')).toBe(false);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: EMAIL, password: MAIN },
    });
    expect(login.statusCode).toBe(200);
    userKey = login.json().api_key;
    const created = await asUser('POST', '/api/account/app-passwords', { name: 'Phone' });
    expect(created.statusCode).toBe(200);
    appPassword = created.json().password;
    expect(appPassword).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    expect(accepted(EMAIL, appPassword)).toBe(true);
    // The right key with the wrong rest is refused (the whole password is verified).
    expect(accepted(EMAIL, `${appPassword.slice(0, 6)}aaaaa-bbbbb-ccccc`)).toBe(false);
  });

  it('with MFA on the main password is refused and only app passwords sign in (also over IMAP)', async () => {
    const start = await asUser('POST', '/api/account/mfa/totp', { deviceName: 'Phone app' });
    expect(start.statusCode).toBe(200);
    const { deviceId, secret } = start.json();
    const confirm = await asUser('POST', `/api/account/mfa/totp/${deviceId}/confirm`, {
      code: codeAt(secret, Date.now()),
    });
    expect(confirm.statusCode).toBe(200);
    expect((await asUser('GET', '/api/account/app-passwords')).json().mfaEnabled).toBe(true);
    expect(accepted(EMAIL, MAIN)).toBe(false);
    expect(accepted(EMAIL, appPassword)).toBe(true);
    expect(await imapLogin(imapPort, EMAIL, MAIN)).toMatch(/^NO/);
    expect(await imapLogin(imapPort, EMAIL, appPassword)).toMatch(/^OK/);
  });

  it('a revoked app password is refused; a second one keeps working; suspension refuses both', async () => {
    const second = (await asUser('POST', '/api/account/app-passwords', { name: 'Laptop' })).json();
    expect(second.password).toBeTruthy();
    const list = (await asUser('GET', '/api/account/app-passwords')).json();
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(['Phone', 'Laptop']);
    expect(JSON.stringify(list)).not.toContain(appPassword);
    const first = list.items[0].id;
    expect((await asUser('DELETE', `/api/account/app-passwords/${first}`)).statusCode).toBe(200);
    expect(accepted(EMAIL, appPassword)).toBe(false);
    expect(accepted(EMAIL, second.password)).toBe(true);
    expect((await t.call({ method: 'POST', url: `/api/mail/users/suspend/${EMAIL}` })).statusCode).toBe(200);
    expect(accepted(EMAIL, second.password)).toBe(false);
    expect((await t.call({ method: 'POST', url: `/api/mail/users/resume/${EMAIL}` })).statusCode).toBe(200);
    expect(accepted(EMAIL, second.password)).toBe(true);
  });
});

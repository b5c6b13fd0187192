import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { Imap, imapLogin } from '../mail-clients.ts';
import { type ImapDovecot, missingDovecotPackages, startImapDovecot, which } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

// ---- what this test needs from the machine -------------------------------------------------

function missingFor(dialect: string): string[] {
  const missing = missingDovecotPackages(dialect);
  if (!which('postmap')) missing.push('postfix');
  if (!which('openssl')) missing.push('openssl');
  const maps = which('postconf') ? spawnSync(which('postconf')!, ['-m'], { encoding: 'utf8' }).stdout : '';
  const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  if (!new RegExp(`\\b${type}\\b`).test(maps)) missing.push(`postfix-${type}`);
  return missing;
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
  let dovecot: ImapDovecot | undefined;
  let imapPort: number;
  let appClosed = false;

  const doveadm = (args: string[]) => dovecot!.doveadm(args);
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
    // What Mailroom rendered: passdb/userdb SQL, quota dictionary, mail location, TLS.
    dovecot = await startImapDovecot({
      include: t.deps.host.path('/etc/dovecot/conf.d/90-mailroom.conf'),
      vmail: t.deps.host.path('/var/vmail'),
      dataDir: t.dataDir,
    });
    imapPort = dovecot.imapPort;
  });

  afterAll(async () => {
    await dovecot?.stop();
    if (appClosed) rmSync(t.dataDir, { recursive: true, force: true });
    else await t.close();
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
      expect((await c.command('LOGIN "alice@example.com" "alice-secret-1"')).status).toMatch(/^OK/);
      const message =
        'From: bob@example.net\r\nTo: alice@example.com\r\nSubject: hello\r\n\r\n' +
        'x'.repeat(2000) +
        '\r\n';
      expect((await c.command('APPEND INBOX', message)).status).toMatch(/^OK/);
    } finally {
      c.close();
    }
    expect(await imapLogin(imapPort, 'alice@example.com', 'not-her-password')).toMatch(/^NO/);
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
    expect(await imapLogin(imapPort, 'alice@example.com', 'alice-secret-1')).toMatch(/^NO/);
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
    expect(await imapLogin(imapPort, 'alice@example.com', 'alice-secret-2')).toMatch(/^OK/);
  });
});

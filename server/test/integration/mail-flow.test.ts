import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { imapLogin, readInbox, sendMail, waitForMessage } from '../mail-clients.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons } from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';

/**
 * Mail really flows: Postfix and Dovecot run on the files Mailroom rendered, unedited, on free
 * loopback ports; messages go in over SMTP and come out over IMAP.
 */

const isRoot = process.getuid?.() === 0;

function skipUnlessReady(dialect: string, what: string): boolean {
  const missing = missingMailPackages(dialect);
  const reason = missing.length
    ? `Debian package(s) missing: ${missing.join(', ')}`
    : !isRoot
      ? 'not running as root (Postfix and Dovecot start as root)'
      : null;
  if (!reason) return false;
  const msg = `${reason}: ${what} on ${dialect} is SKIPPED`;
  if (process.env.MAILROOM_REQUIRE_ALL === '1') throw new Error(`${msg} and MAILROOM_REQUIRE_ALL=1`);
  process.stderr.write(`\n!!! ${msg} !!!\n\n`);
  it.skip(msg, () => undefined);
  return true;
}

async function freePorts() {
  return {
    smtp: await freePort(),
    submission: await freePort(),
    imap: await freePort(),
    imaps: await freePort(),
  };
}

const portEnv = (p: Awaited<ReturnType<typeof freePorts>>, extra: Record<string, string> = {}) => ({
  MAILROOM_SMTP_PORT: String(p.smtp),
  MAILROOM_SUBMISSION_PORT: String(p.submission),
  MAILROOM_IMAP_PORT: String(p.imap),
  MAILROOM_IMAPS_PORT: String(p.imaps),
  ...extra,
});

async function addMailbox(t: TestContext, email: string, password: string, quota = 0) {
  const res = await t.call({
    method: 'POST',
    url: '/api/mail/users/add',
    payload: { email, password, quota },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function renderedOk(t: TestContext) {
  const settings = await t.call({ method: 'GET', url: '/api/mail/settings' });
  const check = settings.json().check;
  expect(check, JSON.stringify(check)).toMatchObject({ ok: true });
  return check as { ok: boolean; output: string };
}

describe.each(dialects())('mail flows through the rendered stack on %s', (dialect) => {
  if (skipUnlessReady(dialect, 'the SMTP→IMAP mail flow test')) return;

  let t: TestContext;
  let ports: Awaited<ReturnType<typeof freePorts>>;
  let daemons: MailDaemons | null = null;
  let appClosed = false;
  const pw = { alice: 'alice-secret-1', bob: 'bob-secret-1', carol: 'carol-secret-1', dave: 'dave-secret-1' };
  const admin = { email: 'admin@example.com', password: 'admin-mail-secret' };
  const smtp = (o: Parameters<typeof sendMail>[1]) => sendMail(ports.smtp, o);
  const submit = (user: string, password: string, o: Omit<Parameters<typeof sendMail>[1], 'auth'>) =>
    sendMail(ports.submission, { ...o, auth: { user, password } });

  beforeAll(async () => {
    ports = await freePorts();
    t = await startTestApp(dialect, { env: portEnv(ports) });
    await renderedOk(t);
    await addMailbox(t, 'alice@example.com', pw.alice);
    await addMailbox(t, 'bob@example.com', pw.bob);
    await addMailbox(t, 'carol@example.com', pw.carol);
    await addMailbox(t, 'dave@example.com', pw.dave, 50 * 1024);
    // The first administrator's address is a mailbox here, so postmaster@ can be read.
    await addMailbox(t, admin.email, admin.password);
    daemons = await startMailDaemons(t.deps.host.path('/'), ports);
  }, 60_000);

  afterAll(async () => {
    await daemons?.stop();
    if (appClosed) rmSync(t.dataDir, { recursive: true, force: true });
    else await t?.close();
  });

  it('SMTP to a mailbox is read over IMAP with the password set through the API', async () => {
    const r = await smtp({ from: 'someone@example.net', to: ['alice@example.com'], subject: 'first-hello' });
    expect(r.rcpt[0]?.code, r.rcpt[0]?.text).toBe(250);
    expect(r.data?.code, r.data?.text).toBe(250);
    expect(await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'first-hello')).toContain(
      'Subject: first-hello',
    );
    expect(await imapLogin(ports.imap, 'alice@example.com', 'wrong-password')).toMatch(/^NO/);
  });

  it('an unknown recipient is refused at RCPT with 5.1.1', async () => {
    const r = await smtp({ from: 'someone@example.net', to: ['nobody@example.com'], subject: 'x' });
    expect(r.rcpt[0]?.code).toBe(550);
    expect(r.rcpt[0]?.text).toContain('5.1.1');
    expect(r.data).toBeNull();
  });

  it('an alias delivers to every active member; a suspended member is skipped, all-suspended is unknown', async () => {
    for (const [source, destination] of [
      ['team@example.com', 'alice@example.com,bob@example.com,carol@example.com'],
      ['solo@example.com', 'carol@example.com'],
    ]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/mail/aliases/add',
        payload: { source, destination },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/suspend/carol@example.com' })).statusCode,
    ).toBe(200);
    const team = await smtp({ from: 'someone@example.net', to: ['team@example.com'], subject: 'team-news' });
    expect(team.rcpt[0]?.code, team.rcpt[0]?.text).toBe(250);
    expect(team.data?.code).toBe(250);
    await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'team-news');
    await waitForMessage(ports.imap, 'bob@example.com', pw.bob, 'team-news');
    const solo = await smtp({ from: 'someone@example.net', to: ['solo@example.com'], subject: 'x' });
    expect(solo.rcpt[0]?.code).toBe(550);
    expect(solo.rcpt[0]?.text).toContain('5.1.1');
    // Suspended: no sign-in, and refused at RCPT.
    expect(await imapLogin(ports.imap, 'carol@example.com', pw.carol)).toMatch(/^NO/);
    const direct = await smtp({ from: 'someone@example.net', to: ['carol@example.com'], subject: 'x' });
    expect(direct.rcpt[0]?.code).toBe(550);
    expect(direct.rcpt[0]?.text).toContain('5.1.1');
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/resume/carol@example.com' })).statusCode,
    ).toBe(200);
    // Resumed, she signs in, and the alias mail sent while she was suspended never reached her.
    const inbox = await readInbox(ports.imap, 'carol@example.com', pw.carol);
    expect(inbox.some((m) => m.includes('team-news'))).toBe(false);
    const again = await smtp({
      from: 'someone@example.net',
      to: ['solo@example.com'],
      subject: 'solo-again',
    });
    expect(again.rcpt[0]?.code).toBe(250);
    await waitForMessage(ports.imap, 'carol@example.com', pw.carol, 'solo-again');
  });

  it('a mailbox over its quota is refused at RCPT, and the API shows its usage', async () => {
    const big = 'y'.repeat(70) + '\r\n';
    const body = big.repeat(600); // ~43 KB of a 50 KB quota
    const first = await smtp({
      from: 'someone@example.net',
      to: ['dave@example.com'],
      subject: 'fills-up',
      body,
    });
    expect(first.data?.code, first.data?.text).toBe(250);
    await waitForMessage(ports.imap, 'dave@example.com', pw.dave, 'fills-up');
    // The announced size no longer fits: refused before any data.
    const announced = await smtp({
      from: 'someone@example.net',
      to: ['dave@example.com'],
      subject: 'too-big',
      body,
      size: body.length + 200,
    });
    expect(announced.rcpt[0]?.code, announced.rcpt[0]?.text).toBe(552);
    expect(announced.rcpt[0]?.text).toContain('5.2.2');
    // Quota lowered below what is stored: even a small message is refused at RCPT.
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/mail/users/quota/dave@example.com',
          payload: { quota: 10 * 1024 },
        })
      ).statusCode,
    ).toBe(200);
    const small = await smtp({ from: 'someone@example.net', to: ['dave@example.com'], subject: 'small' });
    expect(small.rcpt[0]?.code, small.rcpt[0]?.text).toBe(552);
    expect(small.data).toBeNull();
    const dave = (await t.call({ method: 'GET', url: '/api/mail/users?q=dave' })).json()[0];
    expect(dave.used).toBeGreaterThan(40_000);
    // Postfix never logged a refused message as sent.
    const log = readFileSync(t.deps.host.path('/var/log/mail.log'), 'utf8');
    expect(log).not.toMatch(/to=<dave@example\.com>.*status=(sent|bounced)[^\n]*(too-big|small)/);
    expect(log.match(/to=<dave@example\.com>.*status=sent/g) ?? []).toHaveLength(1);
  });

  it('relay from a client outside mynetworks is refused', async () => {
    // Every 127.x address is this machine; only 127.0.0.1 is trusted in local mode.
    const r = await smtp({
      from: 'someone@example.net',
      to: ['someone@example.org'],
      subject: 'relay',
      localAddress: '127.0.0.2',
    });
    expect(r.rcpt[0]?.code).toBe(554);
    expect(r.rcpt[0]?.text).toMatch(/5\.7\.1.*Relay access denied/);
    // The same client may still deliver to a hosted mailbox.
    const local = await smtp({
      from: 'someone@example.net',
      to: ['bob@example.com'],
      subject: 'from-outside',
      localAddress: '127.0.0.2',
    });
    expect(local.rcpt[0]?.code).toBe(250);
  });

  it('submission: AUTH over TLS; alice may send as herself and her aliases, not as bob', async () => {
    const spoof = await submit('alice@example.com', pw.alice, {
      from: 'bob@example.com',
      to: ['carol@example.com'],
      subject: 'spoofed',
    });
    const refused = [spoof.mail, ...spoof.rcpt].find((r) => r.code >= 500);
    expect(refused?.code, JSON.stringify(spoof)).toBe(553);
    expect(refused?.text).toContain('5.7.1');
    expect(spoof.data).toBeNull();
    const own = await submit('alice@example.com', pw.alice, {
      from: 'alice@example.com',
      to: ['carol@example.com'],
      subject: 'from-alice',
    });
    expect(own.data?.code, JSON.stringify(own)).toBe(250);
    await waitForMessage(ports.imap, 'carol@example.com', pw.carol, 'from-alice');
    // team@ delivers to alice, so she may send as team@.
    const asAlias = await submit('alice@example.com', pw.alice, {
      from: 'team@example.com',
      to: ['carol@example.com'],
      subject: 'as-team',
    });
    expect(asAlias.data?.code, JSON.stringify(asAlias)).toBe(250);
    // A wrong password is refused.
    const bad = await submit('alice@example.com', 'nope', {
      from: 'alice@example.com',
      to: ['bob@example.com'],
      subject: 'x',
    });
    expect(bad.mail.code).toBe(535);
  });

  it('postmaster@ and abuse@ exist for every hosted domain and reach the first administrator', async () => {
    for (const local of ['postmaster', 'abuse']) {
      const r = await smtp({
        from: 'someone@example.net',
        to: [`${local}@example.com`],
        subject: `to-${local}`,
      });
      expect(r.rcpt[0]?.code, r.rcpt[0]?.text).toBe(250);
      await waitForMessage(ports.imap, admin.email, admin.password, `to-${local}`);
    }
  });

  it('with Mailroom stopped, mail still flows, logins and refusals still work', async () => {
    await t.app.close();
    await t.deps.database.close();
    appClosed = true;
    const r = await smtp({ from: 'someone@example.net', to: ['team@example.com'], subject: 'while-stopped' });
    expect(r.data?.code).toBe(250);
    await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'while-stopped');
    await waitForMessage(ports.imap, 'carol@example.com', pw.carol, 'while-stopped');
    const unknown = await smtp({ from: 'someone@example.net', to: ['nobody@example.com'], subject: 'x' });
    expect(unknown.rcpt[0]?.code).toBe(550);
    const spoof = await submit('alice@example.com', pw.alice, {
      from: 'bob@example.com',
      to: ['bob@example.com'],
      subject: 'x',
    });
    expect([spoof.mail, ...spoof.rcpt].some((x) => x.code === 553)).toBe(true);
    const own = await submit('bob@example.com', pw.bob, {
      from: 'bob@example.com',
      to: ['alice@example.com'],
      subject: 'bob-stopped',
    });
    expect(own.data?.code).toBe(250);
    await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'bob-stopped');
    const small = await smtp({ from: 'someone@example.net', to: ['dave@example.com'], subject: 'x' });
    expect(small.rcpt[0]?.code).toBe(552);
    const relay = await smtp({
      from: 'a@example.net',
      to: ['b@example.org'],
      subject: 'x',
      localAddress: '127.0.0.2',
    });
    expect(relay.rcpt[0]?.code).toBe(554);
  });
});

describe.each(dialects())("a system-mode render on a copy of Debian's stock /etc on %s", (dialect) => {
  if (skipUnlessReady(dialect, 'the system-layout mail flow test')) return;

  let t: TestContext;
  let root: string;
  let ports: Awaited<ReturnType<typeof freePorts>>;
  let daemons: MailDaemons | null = null;

  beforeAll(async () => {
    ports = await freePorts();
    // The machine's own configuration, as the packages shipped it (chrooted services and all).
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-system-root-'));
    mkdirSync(path.join(root, 'etc'), { recursive: true });
    cpSync('/etc/postfix', path.join(root, 'etc/postfix'), { recursive: true });
    cpSync('/etc/dovecot', path.join(root, 'etc/dovecot'), { recursive: true });
    // Debian's dovecot-core makes this certificate at install; the copy gets its own.
    const pem = path.join(root, 'etc/dovecot/private/dovecot.pem');
    const key = path.join(root, 'etc/dovecot/private/dovecot.key');
    mkdirSync(path.dirname(pem), { recursive: true });
    const ssl = path.join(root, 'etc/dovecot/conf.d/10-ssl.conf');
    writeFileSync(
      ssl,
      readFileSync(ssl, 'utf8').replaceAll('/etc/dovecot/private/', `${path.dirname(pem)}/`),
    );
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=stock',
        '-keyout',
        key,
        '-out',
        pem,
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    t = await startTestApp(dialect, { env: portEnv(ports, { MAILROOM_ROOT: root }) });
    await renderedOk(t);
    await addMailbox(t, 'alice@example.com', 'alice-secret-1');
    daemons = await startMailDaemons(root, ports);
  }, 60_000);

  afterAll(async () => {
    await daemons?.stop();
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps the stock files, with chroot as shipped, and delivers SMTP to IMAP', async () => {
    const master = readFileSync(path.join(root, 'etc/postfix/master.cf'), 'utf8');
    expect(master).toMatch(/^cleanup\s+unix\s+n\s+-\s+y\s/m);
    expect(master).toMatch(/^rewrite\s+unix\s+-\s+-\s+y\s/m);
    expect(master).toMatch(/^#mailroom-off# smtp\s+inet/m);
    expect(readFileSync(path.join(root, 'etc/dovecot/dovecot.conf'), 'utf8')).toBe(
      readFileSync('/etc/dovecot/dovecot.conf', 'utf8'),
    );
    expect(readFileSync(path.join(root, 'etc/postfix/main.cf'), 'utf8')).toContain(
      'alias_maps = hash:/etc/aliases',
    );
    const r = await sendMail(ports.smtp, {
      from: 'someone@example.net',
      to: ['alice@example.com'],
      subject: 'stock-hello',
    });
    expect(r.data?.code, JSON.stringify(r)).toBe(250);
    await waitForMessage(ports.imap, 'alice@example.com', 'alice-secret-1', 'stock-hello');
    const unknown = await sendMail(ports.smtp, {
      from: 'someone@example.net',
      to: ['nobody@example.com'],
      subject: 'x',
    });
    expect(unknown.rcpt[0]?.code).toBe(550);
  });
});

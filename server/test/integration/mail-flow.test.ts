import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
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
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { RSPAMD_PATHS } from '../../src/features/mail/stack/rspamd.renderer.ts';
import { fetchedMessage, imapLogin, readInbox, sendMail, waitForMessage } from '../mail-clients.ts';
import {
  type MailDaemons,
  missingMailPackages,
  type RspamdDaemon,
  startMailDaemons,
  startRspamd,
  which,
} from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';
import { dkimPython, dkimverify, refusingDns } from './dkim-verify.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Mail really flows: Postfix, Dovecot and rspamd (the milter: spam filtering and DKIM signing are
 * on by default) run on the files Mailroom rendered, unedited, on free loopback ports; messages go
 * in over SMTP and come out over IMAP. rspamd asks only a name server here that refuses everything.
 */

const isRoot = process.getuid?.() === 0;

function skipUnlessReady(dialect: string, what: string): boolean {
  const missing = missingMailPackages(dialect);
  if (!which('rspamd')) missing.push('rspamd');
  if (!dkimPython()) missing.push('python3-dkim');
  const reason = missing.length
    ? `Debian package(s) missing: ${missing.join(', ')}`
    : !isRoot
      ? 'not running as root (Postfix and Dovecot start as root)'
      : null;
  if (!reason) return false;
  const msg = `${reason}: ${what} on ${dialect} is SKIPPED`;
  skipLoudly(msg);
  it.skip(msg, () => undefined);
  return true;
}

async function freePorts() {
  return {
    smtp: await freePort(),
    submission: await freePort(),
    imap: await freePort(),
    imaps: await freePort(),
    milter: await freePort(),
    dns: await freePort(),
  };
}

const portEnv = (p: Awaited<ReturnType<typeof freePorts>>, extra: Record<string, string> = {}) => ({
  MAILROOM_SMTP_PORT: String(p.smtp),
  MAILROOM_SUBMISSION_PORT: String(p.submission),
  MAILROOM_IMAP_PORT: String(p.imap),
  MAILROOM_IMAPS_PORT: String(p.imaps),
  MAILROOM_MILTER_PORT: String(p.milter),
  MAILROOM_DNS_PORT: String(p.dns),
  ...extra,
});

async function addMailbox(t: TestContext, email: string, password: string, quota = 0) {
  const res = await t.call({
    method: 'POST',
    url: '/api/mail/users/add',
    payload: { createDomain: true, email, password, quota },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * Waits until Mailroom made the domain's DKIM key (a job after the mailbox that brought the
 * domain) and its signing maps went live; answers the published TXT record (name and value).
 */
async function dkimPublished(t: TestContext, domain: string): Promise<{ name: string; txt: string }> {
  const deadline = Date.now() + 90_000;
  const selectors = t.deps.host.path(RSPAMD_PATHS.dkimSelectors);
  for (;;) {
    const res = await t.call({ method: 'GET', url: '/api/mail/dkim' });
    expect(res.statusCode, res.body).toBe(200);
    const rec = res
      .json<{ name: string; txt: string }[]>()
      .find((r) => r.name.endsWith(`._domainkey.${domain}`));
    const live =
      existsSync(selectors) &&
      new RegExp(`^${domain.replaceAll('.', '\\.')}\\s`, 'm').test(readFileSync(selectors, 'utf8'));
    if (rec && live) return rec;
    if (Date.now() > deadline)
      throw new Error(`no DKIM key for ${domain} published (${res.body}) or not in ${selectors}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** rspamd's workers run as _rspamd: the test's own 0700 temporary folder must let others pass. */
const passable = (dir: string) => chmodSync(dir, 0o755);

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
  let rspamd: RspamdDaemon | null = null;
  let dns: Awaited<ReturnType<typeof refusingDns>> | null = null;
  let dkim: { name: string; txt: string };
  let appClosed = false;
  const pw = { alice: 'alice-secret-1', bob: 'bob-secret-1', carol: 'carol-secret-1', dave: 'dave-secret-1' };
  const admin = { email: 'admin@example.com', password: 'admin-mail-secret' };
  const smtp = (o: Parameters<typeof sendMail>[1]) => sendMail(ports.smtp, o);
  const submit = (user: string, password: string, o: Omit<Parameters<typeof sendMail>[1], 'auth'>) =>
    sendMail(ports.submission, { ...o, auth: { user, password } });

  beforeAll(async () => {
    ports = await freePorts();
    dns = await refusingDns(ports.dns);
    t = await startTestApp(dialect, { env: portEnv(ports) });
    await renderedOk(t);
    await addMailbox(t, 'alice@example.com', pw.alice);
    await addMailbox(t, 'bob@example.com', pw.bob);
    await addMailbox(t, 'carol@example.com', pw.carol);
    await addMailbox(t, 'dave@example.com', pw.dave, 50 * 1024);
    // The first administrator's address is a mailbox here, so postmaster@ can be read.
    await addMailbox(t, admin.email, admin.password);
    // rspamd reads its signing maps at start (then every few minutes): start it once they are live.
    dkim = await dkimPublished(t, 'example.com');
    passable(t.dataDir);
    rspamd = await startRspamd(t.deps.host, ports.milter);
    daemons = await startMailDaemons(t.deps.host.path('/'), ports);
  }, 240_000);

  afterAll(async () => {
    await daemons?.stop();
    await rspamd?.stop();
    dns?.close();
    if (appClosed) rmSync(t.dataDir, { recursive: true, force: true });
    else await t?.close();
  }, 60_000);

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
        payload: { createDomain: true, source, destination },
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

  it('submission as alice is delivered DKIM-signed, and dkimverify accepts it with the key Mailroom publishes', async () => {
    // Every message above passed the filter: Postfix asks rspamd (and defers when it is down).
    const main = readFileSync(t.deps.host.path('/etc/postfix/main.cf'), 'utf8');
    expect(main).toMatch(new RegExp(`^smtpd_milters = inet:127\\.0\\.0\\.1:${ports.milter}$`, 'm'));
    expect(main).toMatch(/^milter_default_action = tempfail$/m);
    const sent = await submit('alice@example.com', pw.alice, {
      from: 'alice@example.com',
      to: ['bob@example.com'],
      subject: 'signed-by-alice',
      body: 'The figures are in.',
    });
    expect(sent.data?.code, JSON.stringify(sent)).toBe(250);
    const message = fetchedMessage(
      await waitForMessage(ports.imap, 'bob@example.com', pw.bob, 'signed-by-alice'),
    );
    expect(message, message).toMatch(/^DKIM-Signature: [^\r\n]*\bd=example\.com;/im);
    const verified = dkimverify(message, { [dkim.name]: dkim.txt });
    expect(verified.out, message).toBe('signature ok');
    expect(verified.ok).toBe(true);
    // The verifier can fail: a changed body does not pass.
    expect(dkimverify(message.replace('figures are', 'numbers are'), { [dkim.name]: dkim.txt }).ok).toBe(
      false,
    );
    // Mail from outside is not signed.
    const inbound = fetchedMessage(
      await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'first-hello'),
    );
    expect(inbound).not.toMatch(/^DKIM-Signature:/im);
    // Still refused: alice as bob.
    const spoof = await submit('alice@example.com', pw.alice, {
      from: 'bob@example.com',
      to: ['bob@example.com'],
      subject: 'spoofed-signed',
    });
    const refused = [spoof.mail, ...spoof.rcpt].find((r) => r.code >= 500);
    expect(refused?.code, JSON.stringify(spoof)).toBe(553);
    expect(refused?.text).toContain('5.7.1');
    expect(spoof.data).toBeNull();
    // rspamd asked only the name server Mailroom gave it.
    expect(dns?.queries()).toBeGreaterThan(0);
  }, 60_000);

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

  it('a catch-all @domain takes mail for unknown addresses only: mailboxes keep theirs, a suspended one stays refused', async () => {
    await addMailbox(t, 'real@catch.test', 'real-secret-1');
    await addMailbox(t, 'paused@catch.test', 'paused-secret-1');
    const made = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/add',
      payload: { source: '@catch.test', destination: 'alice@example.com' },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/suspend/paused@catch.test' })).statusCode,
    ).toBe(200);
    const unknown = await smtp({
      from: 'someone@example.net',
      to: ['whoever@catch.test'],
      subject: 'caught-all',
    });
    expect(unknown.rcpt[0]?.code, unknown.rcpt[0]?.text).toBe(250);
    expect(unknown.data?.code).toBe(250);
    expect(await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'caught-all')).toContain(
      'Subject: caught-all',
    );
    const own = await smtp({ from: 'someone@example.net', to: ['real@catch.test'], subject: 'for-real' });
    expect(own.rcpt[0]?.code, own.rcpt[0]?.text).toBe(250);
    await waitForMessage(ports.imap, 'real@catch.test', 'real-secret-1', 'for-real');
    const aliceInbox = await readInbox(ports.imap, 'alice@example.com', pw.alice);
    expect(aliceInbox.some((m) => m.includes('for-real'))).toBe(false);
    // A suspended mailbox receives nothing itself: with a catch-all its mail goes there, accepted
    // (never accepted and bounced later).
    const paused = await smtp({
      from: 'someone@example.net',
      to: ['paused@catch.test'],
      subject: 'while-paused',
    });
    expect(paused.rcpt[0]?.code, paused.rcpt[0]?.text).toBe(250);
    await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'while-paused');
    const log = readFileSync(t.deps.host.path('/var/log/mail.log'), 'utf8');
    expect(log).not.toMatch(/paused@catch\.test>.*status=bounced/);
    // Other domains keep refusing unknown addresses.
    const other = await smtp({ from: 'someone@example.net', to: ['nobody@example.com'], subject: 'x' });
    expect(other.rcpt[0]?.code).toBe(550);
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
    // rspamd runs on without Mailroom: bob's mail is still signed.
    const signed = fetchedMessage(
      await waitForMessage(ports.imap, 'alice@example.com', pw.alice, 'bob-stopped'),
    );
    expect(dkimverify(signed, { [dkim.name]: dkim.txt }).out, signed).toBe('signature ok');
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
  let rspamd: RspamdDaemon | null = null;
  let dns: Awaited<ReturnType<typeof refusingDns>> | null = null;

  beforeAll(async () => {
    ports = await freePorts();
    dns = await refusingDns(ports.dns);
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
    await dkimPublished(t, 'example.com');
    passable(root);
    rspamd = await startRspamd(t.deps.host, ports.milter);
    daemons = await startMailDaemons(root, ports);
  }, 240_000);

  afterAll(async () => {
    await daemons?.stop();
    await rspamd?.stop();
    dns?.close();
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('keeps the stock files, with chroot as shipped, and delivers SMTP to IMAP', async () => {
    const master = readFileSync(path.join(root, 'etc/postfix/master.cf'), 'utf8');
    expect(master).toMatch(/^cleanup\s+unix\s+n\s+-\s+y\s/m);
    expect(master).toMatch(/^rewrite\s+unix\s+-\s+-\s+y\s/m);
    expect(master).toMatch(/^#mailroom-off# smtp\s+inet/m);
    expect(readFileSync(path.join(root, 'etc/dovecot/dovecot.conf'), 'utf8')).toBe(
      readFileSync('/etc/dovecot/dovecot.conf', 'utf8'),
    );
    const main = readFileSync(path.join(root, 'etc/postfix/main.cf'), 'utf8');
    expect(main).toContain('alias_maps = hash:/etc/aliases');
    // The filter is on here too: the message below passes rspamd.
    expect(main).toMatch(new RegExp(`^smtpd_milters = inet:127\\.0\\.0\\.1:${ports.milter}$`, 'm'));
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

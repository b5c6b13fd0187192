import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';
import { fetchedMessage, imapLogin, waitForMessage } from '../mail-clients.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons } from '../mail-daemons.ts';
import { freePort } from '../postgres-cluster.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Sign-in codes by e-mail through the real mail server: Mailroom renders Postfix and Dovecot, they
 * run on free loopback ports, and Mailroom hands its code mails to that Postfix (MAILROOM_SMTP_PORT,
 * the port the rendered files listen on). The code is read back over IMAP from the account's
 * mailbox and completes the second step. The mail filter is switched off in the mail settings
 * (rspamd takes half a minute to start; mail-flow.test.ts proves mail through it).
 */

const isRoot = process.getuid?.() === 0;
const codeAt = (secret: string, ms = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });
/** The header block of a message, unfolded, as name → value (first occurrence). */
function headers(message: string): Map<string, string> {
  const head = message.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const out = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !out.has(line.slice(0, i).toLowerCase()))
      out.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  return out;
}

describe.each(dialects())('e-mail sign-in codes through Postfix and Dovecot on %s', (dialect) => {
  const missing = missingMailPackages(dialect);
  const reason = missing.length
    ? `Debian package(s) missing: ${missing.join(', ')}`
    : !isRoot
      ? 'not running as root (Postfix and Dovecot start as root)'
      : null;
  if (reason) {
    const msg = `${reason}: the e-mail code through the real mail server on ${dialect} is SKIPPED`;
    skipLoudly(msg);
    it.skip(msg, () => undefined);
    return;
  }

  let t: TestContext;
  let ports: { smtp: number; submission: number; imap: number; imaps: number; milter: number; dns: number };
  let daemons: MailDaemons | null = null;
  let hostname = '';
  /** The console administrator's own address is a mailbox here (its password for IMAP). */
  const ADMIN_MAILBOX_PASSWORD = 'admin-mailbox-secret-1';
  const GINA = { email: 'gina@example.com', password: 'gina-mailbox-secret-1' };
  const post = (url: string, payload: object, key?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
    });

  /** Enrols an authenticator app for the signed-in account; answers its secret. */
  async function enrolTotp(key: string): Promise<string> {
    const start = await post('/api/account/mfa/totp', { deviceName: 'Phone' }, key);
    expect(start.statusCode, start.body).toBe(200);
    const { deviceId, secret } = start.json<{ deviceId: number; secret: string }>();
    const confirm = await post(`/api/account/mfa/totp/${deviceId}/confirm`, { code: codeAt(secret) }, key);
    expect(confirm.statusCode, confirm.body).toBe(200);
    return secret;
  }

  /** Password, then a mailed code read over IMAP with `imapPassword`: the whole sign-in. */
  async function signInWithMailedCode(who: { email: string; password: string }, imapPassword: string) {
    const login = await post('/auth/login', who);
    expect(login.json(), login.body).toMatchObject({ mfa_required: true });
    const { challenge, methods } = login.json<{ challenge: string; methods: string[] }>();
    expect(methods).toContain('email_code');
    const sent = await post('/auth/mfa/email-code', { challenge });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sentTo).toBe(`${who.email[0]}${'*'.repeat(who.email.indexOf('@') - 1)}@example.com`);
    const fetched = await waitForMessage(ports.imap, who.email, imapPassword, 'your sign-in code', 30_000);
    const message = fetchedMessage(fetched);
    const h = headers(message);
    // Handed to Postfix by Mailroom under the mail server's name (the Received line Postfix wrote), with
    // the headers a mail client needs.
    const head = message.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(head, message).toMatch(
      new RegExp(
        `^Received: from ${hostname.replaceAll('.', '\\.')} \\(\\S+ \\[127\\.0\\.0\\.1\\]\\) by \\S+ \\(Postfix\\)`,
        'm',
      ),
    );
    expect(h.get('subject')).toBe('Mailroom: your sign-in code');
    expect(h.get('to')).toBe(`<${who.email}>`);
    // From the mail server's own name (its mail settings), not a made-up local one.
    expect(h.get('from')).toBe(`Mailroom <mailroom@${hostname}>`);
    expect(h.get('return-path')).toBe(`<mailroom@${hostname}>`);
    expect(h.get('message-id')).toMatch(new RegExp(`^<[0-9a-f]+@${hostname.replaceAll('.', '\\.')}>$`));
    expect(Number.isNaN(Date.parse(h.get('date') ?? ''))).toBe(false);
    const code = /sign-in code is (\d{6})/.exec(message)?.[1];
    expect(code, message).toBeTruthy();
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      (await post('/auth/mfa/verify', { challenge, method: 'email_code', code: wrong })).statusCode,
    ).toBe(401);
    const done = await post('/auth/mfa/verify', { challenge, method: 'email_code', code: code! });
    expect(done.statusCode, done.body).toBe(200);
    return done.json<{ success: boolean; email: string; kind: string; api_key: string }>();
  }

  beforeAll(async () => {
    ports = {
      smtp: await freePort(),
      submission: await freePort(),
      imap: await freePort(),
      imaps: await freePort(),
      milter: await freePort(),
      dns: await freePort(),
    };
    t = await startTestApp(dialect, {
      env: {
        MAILROOM_SMTP_PORT: String(ports.smtp),
        MAILROOM_SUBMISSION_PORT: String(ports.submission),
        MAILROOM_IMAP_PORT: String(ports.imap),
        MAILROOM_IMAPS_PORT: String(ports.imaps),
        MAILROOM_MILTER_PORT: String(ports.milter),
        MAILROOM_DNS_PORT: String(ports.dns),
      },
    });
    const current = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
    const saved = await t.call({
      method: 'POST',
      url: '/api/mail/settings',
      payload: {
        settings: { ...current.settings, enableSpamFilter: false, enableDKIM: false, enableVirusScan: false },
        version: current.version,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().check, saved.body).toMatchObject({ ok: true });
    hostname = saved.json().settings.hostname;
    for (const [email, password] of [
      [ADMIN.email, ADMIN_MAILBOX_PASSWORD],
      [GINA.email, GINA.password],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { createDomain: true, email, password, quota: 0 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    daemons = await startMailDaemons(t.deps.host.path('/'), ports);
  }, 120_000);

  afterAll(async () => {
    await daemons?.stop();
    await t?.close();
  }, 60_000);

  it('a console administrator: the recovery address (its own mailbox) is verified by a mailed code, then a sign-in code there completes the second step', async () => {
    const added = await t.call({
      method: 'POST',
      url: '/api/account/recovery-methods',
      payload: { email: ADMIN.email },
    });
    expect(added.statusCode, added.body).toBe(200);
    const verifyMail = fetchedMessage(
      await waitForMessage(
        ports.imap,
        ADMIN.email,
        ADMIN_MAILBOX_PASSWORD,
        'verify your recovery address',
        30_000,
      ),
    );
    const verifyCode = /verification code is (\d{6})/.exec(verifyMail)?.[1];
    expect(verifyCode, verifyMail).toBeTruthy();
    const verified = await t.call({
      method: 'POST',
      url: `/api/account/recovery-methods/${added.json().id}/verify`,
      payload: { code: verifyCode },
    });
    expect(verified.json(), verified.body).toMatchObject({ verified: true });
    await enrolTotp(t.token);
    const done = await signInWithMailedCode(ADMIN, ADMIN_MAILBOX_PASSWORD);
    expect(done).toMatchObject({ success: true, email: ADMIN.email, kind: 'admin' });
  });

  it('a mailbox user with MFA on: the code goes to the mailbox, read with an app password', async () => {
    const key = (await post('/auth/login', GINA)).json().api_key as string;
    expect(key).toBeTruthy();
    const app = await post('/api/account/app-passwords', { name: 'Mail app' }, key);
    expect(app.statusCode, app.body).toBe(200);
    const appPassword = app.json().password as string;
    await enrolTotp(key);
    // With MFA on, Dovecot takes only app passwords.
    expect(await imapLogin(ports.imap, GINA.email, GINA.password)).toMatch(/^NO/);
    const done = await signInWithMailedCode(GINA, appPassword);
    expect(done).toMatchObject({ success: true, email: GINA.email, kind: 'mailbox' });
  });
});

import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { smtpSink } from '../smtp-sink.ts';

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

describe.each(dialects())('e-mail codes as a second step on %s', (dialect) => {
  let t: TestContext;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let now = Date.now();
  const GINA = { email: 'gina@example.net', password: 'gina-mailbox-pass-1' };
  const login = () => t.app.inject({ method: 'POST', url: '/auth/login', payload: GINA });
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  const challenge = async () => {
    const res = await login();
    expect(res.json()).toMatchObject({ mfa_required: true });
    return res.json<{ challenge: string; methods: string[] }>();
  };
  const lastCode = () => /sign-in code is (\d{6})/.exec(sink.messages.at(-1)!.data)![1]!;

  beforeAll(async () => {
    sink = await smtpSink();
    t = await startTestApp(dialect, { env: { MAILROOM_SMTP_PORT: String(sink.port) } });
    // A set clock (30 s steps): TOTP codes and the code expiry are computed from it.
    now = Math.floor(Date.now() / 30_000) * 30_000 + 5_000;
    t.deps.clock = () => now;
    const add = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: GINA.email, password: GINA.password, quota: 1024 * 1024 },
    });
    expect(add.statusCode, add.body).toBe(200);
    const key = (await login()).json().api_key as string;
    const as = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${key}` } });
    const start = (await as('/api/account/mfa/totp', { deviceName: 'Phone' })).json();
    expect(
      (await as(`/api/account/mfa/totp/${start.deviceId}/confirm`, { code: codeAt(start.secret, now) }))
        .statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => sink.server.close(r));
  });

  it('a code goes to the mailbox through SMTP and signs in once', async () => {
    const ch = await challenge();
    expect(ch.methods).toContain('email_code');
    const sent = await post('/auth/mfa/email-code', { challenge: ch.challenge });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ success: true, sentTo: 'g***@example.net' });
    const mail = sink.messages.at(-1)!;
    expect(mail.to).toBe(GINA.email);
    expect(mail.data).toContain('Subject: Mailroom: your sign-in code');
    // Sent as the mail server itself (the hostname of the mail settings), with a Message-ID.
    const { hostname } = (await t.call({ method: 'GET', url: '/api/mail/settings' })).json().settings;
    expect(mail.data).toContain(`From: Mailroom <mailroom@${hostname}>`);
    expect(mail.data).toMatch(
      new RegExp(`^Message-ID: <[0-9a-f]+@${hostname.replaceAll('.', '\\.')}>$`, 'm'),
    );
    expect(mail.data).toMatch(/^Date: \w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d \+0000$/m);
    const code = lastCode();
    // Stored hashed: the code itself is nowhere in the database row.
    const row = await t.deps.database.db.selectFrom('mfa_challenges').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    // A new code at most every 30 s.
    expect((await post('/auth/mfa/email-code', { challenge: ch.challenge })).statusCode).toBe(429);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      (await post('/auth/mfa/verify', { challenge: ch.challenge, method: 'email_code', code: wrong }))
        .statusCode,
    ).toBe(401);
    const ok = await post('/auth/mfa/verify', { challenge: ch.challenge, method: 'email_code', code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, email: GINA.email, kind: 'mailbox' });
    const again = await post('/auth/mfa/verify', { challenge: ch.challenge, method: 'email_code', code });
    expect(again.statusCode).toBe(401);
  });

  it('the resend limit is per account: a new sign-in does not get a new code sooner', async () => {
    now += 60_000;
    const first = await challenge();
    expect((await post('/auth/mfa/email-code', { challenge: first.challenge })).statusCode).toBe(200);
    const sent = sink.messages.length;
    // Someone who knows the password opens sign-in after sign-in: each would mail a code.
    for (let i = 0; i < 3; i++) {
      const again = await post('/auth/mfa/email-code', { challenge: (await challenge()).challenge });
      expect(again.statusCode).toBe(429);
      expect(again.json().message).toBe('A code was just sent. Wait a little before asking for another.');
    }
    expect(sink.messages.length).toBe(sent);
    now += 30_000;
    expect(
      (await post('/auth/mfa/email-code', { challenge: (await challenge()).challenge })).statusCode,
    ).toBe(200);
  });

  it('a code expires after 10 minutes; a code is worth nothing for another sign-in', async () => {
    now += 30_000;
    const ch = await challenge();
    expect((await post('/auth/mfa/email-code', { challenge: ch.challenge })).statusCode).toBe(200);
    const code = lastCode();
    const other = await challenge();
    expect(
      (await post('/auth/mfa/verify', { challenge: other.challenge, method: 'email_code', code })).statusCode,
    ).toBe(401);
    now += 10 * 60_000 + 1_000;
    expect(
      (await post('/auth/mfa/verify', { challenge: ch.challenge, method: 'email_code', code })).statusCode,
    ).toBe(401);
  });

  it('wrong codes count toward the lockout (with the earlier wrong ones: 5 lock the account)', async () => {
    let locked = false;
    for (let i = 0; i < 5 && !locked; i++) {
      const res = await login();
      if (res.statusCode === 429) locked = true;
      else {
        const ch = res.json<{ challenge: string }>();
        const v = await post('/auth/mfa/verify', {
          challenge: ch.challenge,
          method: 'email_code',
          code: '999999',
        });
        locked = v.statusCode === 429;
      }
    }
    expect(locked).toBe(true);
    expect((await login()).statusCode).toBe(429);
    const lock = await t.deps.database.db.selectFrom('mfa_lockouts').selectAll().executeTakeFirstOrThrow();
    expect(lock.attempts).toBe(5);
  });

  it("a policy of the mailbox's domain whose allowed methods leave out Email offers no e-mail code", async () => {
    now += 60 * 60_000;
    const policy = (name: string, appliesTo: string) =>
      t.call({
        method: 'POST',
        url: '/api/mfa/policies',
        payload: { name, appliesTo, requireMfa: false, allowedMethods: ['TOTP', 'Backup Codes'] },
      });
    // A policy for administrators does not cover a mailbox user.
    expect((await policy('No mail codes for administrators', 'admins')).statusCode).toBe(200);
    expect((await challenge()).methods).toContain('email_code');
    const res = await policy('No mail codes', 'domain:example.net');
    expect(res.statusCode, res.body).toBe(200);
    const ch = await challenge();
    expect(ch.methods).not.toContain('email_code');
    expect((await post('/auth/mfa/email-code', { challenge: ch.challenge })).statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { smtpSink } from '../smtp-sink.ts';

describe.each(dialects())('recovery e-mail address on %s', (dialect) => {
  let t: TestContext;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  beforeAll(async () => {
    sink = await smtpSink();
    t = await startTestApp(dialect, { env: { MAILROOM_SMTP_PORT: String(sink.port) } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => sink.server.close(r));
  });

  it('mails a code through SMTP; the code verifies the address once', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/account/recovery-methods',
      payload: { email: 'Me@Backup.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      methodType: 'Email',
      methodValue: 'me@backup.example',
      verified: false,
    });
    const mail = sink.messages.at(-1)!;
    expect(mail.to).toBe('me@backup.example');
    expect(mail.data).toContain('Subject: Mailroom: verify your recovery address');
    const code = /verification code is (\d{6})/.exec(mail.data)?.[1];
    expect(code).toBeTruthy();
    const id = res.json().id;
    const wrong = await t.call({
      method: 'POST',
      url: `/api/account/recovery-methods/${id}/verify`,
      payload: { code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.call({
      method: 'POST',
      url: `/api/account/recovery-methods/${id}/verify`,
      payload: { code },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ verified: true, status: 'active' });
    const again = await t.call({
      method: 'POST',
      url: `/api/account/recovery-methods/${id}/verify`,
      payload: { code },
    });
    expect(again.statusCode).toBe(400);
    const rec = (await t.call({ method: 'GET', url: '/api/mfa/recovery' })).json();
    expect(rec.recoveryMethods[0]).toMatchObject({ methodValue: 'me@backup.example', verified: true });
  });

  it('a refused recipient is a field error naming the server reply, not a 500', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/account/recovery-methods',
      payload: { email: 'x@refused.example' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toMatchObject({ field: 'email' });
    expect(res.json().details[0].message).toContain('550');
  });
});

import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/** A tiny SMTP sink on 127.0.0.1: speaks just enough SMTP and keeps every message it receives. */
function smtpSink(): Promise<{ server: Server; port: number; messages: { to: string; data: string }[] }> {
  const messages: { to: string; data: string }[] = [];
  const server = createServer((sock: Socket) => {
    let to = '';
    let data: string | null = null;
    let buf = '';
    sock.setEncoding('utf8');
    sock.write('220 sink ESMTP\r\n');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push({ to, data });
            data = null;
            sock.write('250 queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') sock.write('250-sink\r\n250 8BITMIME\r\n');
        else if (cmd === 'MAIL') sock.write('250 ok\r\n');
        else if (cmd === 'RCPT') {
          to = /<([^>]*)>/.exec(line)?.[1] ?? '';
          sock.write(to.endsWith('@refused.example') ? '550 no such user\r\n' : '250 ok\r\n');
        } else if (cmd === 'DATA') {
          data = '';
          sock.write('354 go on\r\n');
        } else if (cmd === 'QUIT') {
          sock.end('221 bye\r\n');
        } else sock.write('500 what\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : 0, messages });
    }),
  );
}

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

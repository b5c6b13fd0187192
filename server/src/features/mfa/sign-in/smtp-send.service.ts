import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** An RFC 5322 date in UTC: `Mon, 23 Nov 2026 06:12:00 +0000`. */
export function rfc5322Date(d: Date): string {
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(
    d.getUTCHours(),
  )}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/**
 * Hands one plain-text message to the local mail server over SMTP (127.0.0.1, the configured
 * port): EHLO, MAIL, RCPT, DATA, QUIT. Rejects with the server's reply when a step is refused.
 */
export async function sendMail(opts: {
  port: number;
  host?: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  timeoutMs?: number;
}): Promise<void> {
  const sock = connect({ host: opts.host ?? '127.0.0.1', port: opts.port });
  sock.setEncoding('utf8');
  sock.setTimeout(opts.timeoutMs ?? 10_000, () => sock.destroy(new Error('SMTP timed out')));
  let buffer = '';
  const waiters: ((reply: string) => void)[] = [];
  let failure: Error | null = null;
  sock.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply ends with a line "NNN text" (a space after the code, not a dash).
    for (;;) {
      const m = /^(?:\d{3}-[^\n]*\n)*\d{3} [^\n]*\n/.exec(buffer);
      if (!m) break;
      buffer = buffer.slice(m[0].length);
      waiters.shift()?.(m[0]);
    }
  });
  const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
  sock.on('error', (err) => {
    failure = err;
  });
  const reply = () =>
    new Promise<string>((resolve, reject) => {
      if (failure) return reject(failure);
      waiters.push(resolve);
      sock.once('close', () => reject(failure ?? new Error('SMTP connection closed')));
    });
  const step = async (line: string | null, expect: string) => {
    const answer = reply();
    if (line !== null) sock.write(`${line}\r\n`);
    const r = await answer;
    if (!r.startsWith(expect)) throw new Error(`SMTP ${line ?? 'greeting'}: ${r.trim()}`);
  };
  try {
    await step(null, '2');
    // The sender's domain (the mail server's own name) is the name this client gives.
    await step(`EHLO ${opts.from.slice(opts.from.lastIndexOf('@') + 1) || 'localhost'}`, '2');
    await step(`MAIL FROM:<${opts.from}>`, '2');
    await step(`RCPT TO:<${opts.to}>`, '2');
    await step('DATA', '3');
    const body = [
      `From: Mailroom <${opts.from}>`,
      `To: <${opts.to}>`,
      `Subject: ${opts.subject}`,
      `Date: ${rfc5322Date(new Date())}`,
      `Message-ID: <${randomBytes(12).toString('hex')}@${opts.from.slice(opts.from.lastIndexOf('@') + 1)}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      ...opts.text.split('\n').map((l) => (l.startsWith('.') ? `.${l}` : l)),
    ].join('\r\n');
    await step(`${body}\r\n.`, '2');
    sock.write('QUIT\r\n');
  } finally {
    sock.end();
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
    sock.destroy();
  }
}

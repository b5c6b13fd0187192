import net from 'node:net';
import tls from 'node:tls';

/** Small SMTP and IMAP clients for tests and benches: real protocol on a socket, nothing mocked. */

class LineSocket {
  private buf = '';
  private waiters: (() => void)[] = [];
  private closed = false;
  constructor(public sock: net.Socket | tls.TLSSocket) {
    this.attach(sock);
  }

  attach(sock: net.Socket | tls.TLSSocket): void {
    this.sock = sock;
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      this.buf += d;
      this.wake();
    });
    sock.on('close', () => {
      this.closed = true;
      this.wake();
    });
    sock.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits until `take` finds a complete answer at the start of the buffer, and removes it. */
  async until(take: (buf: string) => number, ms = 20_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const n = take(this.buf);
      if (n > 0) {
        const out = this.buf.slice(0, n);
        this.buf = this.buf.slice(n);
        return out;
      }
      if (this.closed) throw new Error(`connection closed; got: ${this.buf}`);
      if (Date.now() > deadline) throw new Error(`timeout; got: ${this.buf}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  write(text: string): void {
    this.sock.write(text);
  }
}

async function openSocket(port: number, localAddress?: string): Promise<net.Socket> {
  const sock = net.connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  return sock;
}

export interface SmtpReply {
  code: number;
  text: string;
}

export class Smtp {
  private constructor(private readonly io: LineSocket) {}

  static async connect(port: number, opts: { localAddress?: string } = {}): Promise<Smtp> {
    const c = new Smtp(new LineSocket(await openSocket(port, opts.localAddress)));
    const greeting = await c.reply();
    if (greeting.code !== 220) throw new Error(`SMTP greeting: ${greeting.text}`);
    return c;
  }

  /** One whole reply (multi-line replies joined). */
  async reply(): Promise<SmtpReply> {
    const text = await this.io.until((b) => {
      const m = /(^|\r\n)\d{3} [^\r\n]*\r\n/.exec(b);
      return m ? m.index + m[0].length : 0;
    });
    const lines = text.trimEnd().split('\r\n');
    return { code: Number(lines.at(-1)!.slice(0, 3)), text: lines.join('\n') };
  }

  async command(line: string): Promise<SmtpReply> {
    this.io.write(line + '\r\n');
    return this.reply();
  }

  async ehlo(): Promise<SmtpReply> {
    return this.command('EHLO client.example.net');
  }

  async startTls(): Promise<void> {
    const r = await this.command('STARTTLS');
    if (r.code !== 220) throw new Error(`STARTTLS: ${r.text}`);
    const plain = this.io.sock;
    plain.removeAllListeners('data');
    const secure = tls.connect({ socket: plain, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.io.attach(secure);
  }

  async authPlain(user: string, password: string): Promise<SmtpReply> {
    return this.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${password}`).toString('base64')}`);
  }

  /** DATA with a dot-stuffed message; answers the reply to the final dot. */
  async data(message: string): Promise<SmtpReply> {
    const r = await this.command('DATA');
    if (r.code !== 354) return r;
    const body = message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    return this.command(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.`);
  }

  close(): void {
    this.io.write('QUIT\r\n');
    this.io.sock.end();
  }
}

export interface SendResult {
  mail: SmtpReply;
  rcpt: SmtpReply[];
  /** Null when no recipient was accepted. */
  data: SmtpReply | null;
}

/** One message through an open session (EHLO, optional STARTTLS + AUTH, already done by the caller). */
export async function sendOn(
  c: Smtp,
  from: string,
  to: string[],
  message: string,
  size?: number,
): Promise<SendResult> {
  const mail = await c.command(`MAIL FROM:<${from}>${size ? ` SIZE=${size}` : ''}`);
  const rcpt: SmtpReply[] = [];
  for (const r of to) rcpt.push(await c.command(`RCPT TO:<${r}>`));
  const data = rcpt.some((r) => r.code === 250) ? await c.data(message) : null;
  if (!data) await c.command('RSET');
  return { mail, rcpt, data };
}

export interface SendOptions {
  from: string;
  to: string[];
  subject: string;
  body?: string;
  auth?: { user: string; password: string };
  localAddress?: string;
  /** Announced with MAIL FROM (SIZE=). */
  size?: number;
}

export const messageText = (o: Pick<SendOptions, 'from' | 'to' | 'subject' | 'body'>) =>
  `From: <${o.from}>\r\nTo: ${o.to.map((t) => `<${t}>`).join(', ')}\r\nSubject: ${o.subject}\r\n` +
  `Message-ID: <${o.subject.replace(/\W/g, '')}.${Date.now()}@client.example.net>\r\n\r\n${o.body ?? 'hello'}\r\n`;

/** Connects, (STARTTLS and AUTH when `auth` is given), sends one message, quits. */
export async function sendMail(port: number, o: SendOptions): Promise<SendResult> {
  const c = await Smtp.connect(port, o.localAddress ? { localAddress: o.localAddress } : {});
  try {
    await c.ehlo();
    if (o.auth) {
      await c.startTls();
      await c.ehlo();
      const a = await c.authPlain(o.auth.user, o.auth.password);
      if (a.code !== 235) return { mail: a, rcpt: [], data: null };
    }
    return await sendOn(c, o.from, o.to, messageText(o), o.size);
  } finally {
    c.close();
  }
}

export class Imap {
  private n = 0;
  private constructor(private readonly io: LineSocket) {}

  static async connect(port: number): Promise<Imap> {
    const c = new Imap(new LineSocket(await openSocket(port)));
    await c.io.until((b) => (b.includes('\r\n') ? b.indexOf('\r\n') + 2 : 0));
    return c;
  }

  /**
   * Sends a tagged command; answers everything up to and including the tagged status line.
   * `literal`: sent after `line` as an IMAP literal (APPEND's message), once the server asks for it.
   */
  async command(line: string, literal?: string): Promise<{ status: string; text: string }> {
    const tag = `t${++this.n}`;
    if (literal === undefined) this.io.write(`${tag} ${line}\r\n`);
    else {
      this.io.write(`${tag} ${line} {${Buffer.byteLength(literal)}}\r\n`);
      await this.io.until((b) => (b.startsWith('+') && b.includes('\r\n') ? b.indexOf('\r\n') + 2 : 0));
      this.io.write(literal + '\r\n');
    }
    const text = await this.io.until((b) => {
      const m = new RegExp(`(^|\\r\\n)${tag} [^\\r\\n]*\\r\\n`).exec(b);
      return m ? m.index + m[0].length : 0;
    });
    const status = text
      .trimEnd()
      .split('\r\n')
      .at(-1)!
      .slice(tag.length + 1);
    return { status, text };
  }

  close(): void {
    this.io.write('t0 LOGOUT\r\n');
    this.io.sock.end();
  }
}

/** Signs in over IMAP; answers the LOGIN status line (`OK …` / `NO …`). */
export async function imapLogin(port: number, user: string, password: string): Promise<string> {
  const c = await Imap.connect(port);
  try {
    return (await c.command(`LOGIN "${user}" "${password}"`)).status;
  } finally {
    c.close();
  }
}

/** The INBOX's messages (headers and body as text), read over IMAP. */
export async function readInbox(port: number, user: string, password: string): Promise<string[]> {
  const c = await Imap.connect(port);
  try {
    const login = await c.command(`LOGIN "${user}" "${password}"`);
    if (!login.status.startsWith('OK')) throw new Error(`IMAP LOGIN ${user}: ${login.status}`);
    const sel = await c.command('SELECT INBOX');
    const exists = Number(/\* (\d+) EXISTS/.exec(sel.text)?.[1] ?? 0);
    const out: string[] = [];
    for (let i = 1; i <= exists; i++) out.push((await c.command(`FETCH ${i} BODY.PEEK[]`)).text);
    return out;
  } finally {
    c.close();
  }
}

/** Polls the INBOX until a message containing `needle` is there (delivery is asynchronous). */
export async function waitForMessage(
  port: number,
  user: string,
  password: string,
  needle: string,
  ms = 20_000,
): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = (await readInbox(port, user, password)).find((m) => m.includes(needle));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no message with "${needle}" for ${user}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The message itself from one FETCH … BODY[] answer (the IMAP literal, exactly as stored). */
export function fetchedMessage(fetch: string): string {
  const m = /BODY\[\] \{(\d+)\}\r\n/.exec(fetch);
  if (!m) throw new Error(`no BODY[] literal in: ${fetch.slice(0, 200)}`);
  const rest = Buffer.from(fetch.slice(m.index + m[0].length), 'utf8');
  return rest.subarray(0, Number(m[1])).toString('utf8');
}

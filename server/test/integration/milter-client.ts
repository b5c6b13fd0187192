import net from 'node:net';

/**
 * The MTA side of the milter protocol (version 6), as Postfix speaks it to a milter: enough to
 * pass one message through a filter and collect what it asks to change. Test use only.
 */

export interface MilterMessage {
  client: { name: string; address: string; port: number };
  helo: string;
  /** Set as the `{auth_authen}` macro: the SASL login of an authenticated sender. */
  authUser?: string;
  from: string;
  rcpt: string[];
  headers: [string, string][];
  body: string;
}

export type MilterAction =
  { kind: 'accept' | 'continue' | 'discard' | 'tempfail' | 'reject' } | { kind: 'reply'; text: string };

export interface MilterResult {
  action: MilterAction;
  /** Header changes, in the order asked. */
  inserted: { index: number; name: string; value: string }[];
  added: { name: string; value: string }[];
  changed: { index: number; name: string; value: string }[];
  /** The message as delivered with every header change applied (CRLF line ends). */
  message: string;
}

const z = (s: string) => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.from([0])]);

function packet(cmd: string, ...parts: Buffer[]): Buffer {
  const data = Buffer.concat([Buffer.from(cmd, 'latin1'), ...parts]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
}

const macros = (stage: string, pairs: Record<string, string>) =>
  packet('D', Buffer.from(stage, 'latin1'), ...Object.entries(pairs).flatMap(([k, v]) => [z(k), z(v)]));

class Conn {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private ended: Error | null = null;
  constructor(private readonly sock: net.Socket) {
    sock.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (const w of this.waiters.splice(0)) w();
    });
    const end = (e?: Error) => {
      this.ended = e ?? new Error('milter closed the connection');
      for (const w of this.waiters.splice(0)) w();
    };
    sock.on('error', end);
    sock.on('close', () => end());
  }

  send(b: Buffer): void {
    this.sock.write(b);
  }

  /** The next reply: its command letter and data. */
  async read(timeoutMs = 60_000): Promise<{ cmd: string; data: Buffer }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.buf.length >= 4) {
        const len = this.buf.readUInt32BE(0);
        if (this.buf.length >= 4 + len) {
          const cmd = String.fromCharCode(this.buf[4]!);
          const data = this.buf.subarray(5, 4 + len);
          this.buf = this.buf.subarray(4 + len);
          return { cmd, data };
        }
      }
      if (this.ended) throw this.ended;
      if (Date.now() > deadline) throw new Error('milter reply timeout');
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 250);
      });
    }
  }

  close(): void {
    this.sock.destroy();
  }
}

const zstrings = (b: Buffer) => b.toString('latin1').split('\0');

/** Passes one message through the milter at host:port. */
export async function milterScan(
  port: number,
  m: MilterMessage,
  hostName = '127.0.0.1',
): Promise<MilterResult> {
  const sock = net.connect({ host: hostName, port });
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  const c = new Conn(sock);
  const inserted: MilterResult['inserted'] = [];
  const added: MilterResult['added'] = [];
  const changed: MilterResult['changed'] = [];
  try {
    // Version 6, every action allowed, no protocol steps skipped: a reply to every command.
    const neg = Buffer.alloc(12);
    neg.writeUInt32BE(6, 0);
    neg.writeUInt32BE(0x1ff, 4);
    neg.writeUInt32BE(0, 8);
    c.send(packet('O', neg));
    const opt = await c.read();
    if (opt.cmd !== 'O') throw new Error(`milter negotiation answered ${opt.cmd}`);
    // The filter may ask for no reply to some commands (rspamd answers only at end of message).
    const protocol = opt.data.readUInt32BE(8);
    const noReply: Record<string, number> = {
      C: 0x1000,
      H: 0x2000,
      M: 0x4000,
      R: 0x8000,
      T: 0x10000,
      L: 0x80,
      N: 0x40000,
      B: 0x80000,
    };

    /** Sends a command and reads replies until a final one; header changes are collected. */
    const step = async (b: Buffer): Promise<MilterAction> => {
      c.send(b);
      // The command is the last packet in `b`: its letter follows the last packet's length.
      let at = 0;
      let last = '';
      while (at < b.length) {
        last = String.fromCharCode(b[at + 4]!);
        at += 4 + b.readUInt32BE(at);
      }
      if (protocol & (noReply[last] ?? 0)) return { kind: 'continue' };
      for (;;) {
        const { cmd, data } = await c.read();
        switch (cmd) {
          case 'c':
            return { kind: 'continue' };
          case 'a':
            return { kind: 'accept' };
          case 'd':
            return { kind: 'discard' };
          case 't':
            return { kind: 'tempfail' };
          case 'r':
            return { kind: 'reject' };
          case 'y':
            return { kind: 'reply', text: zstrings(data)[0] ?? '' };
          case 'h': {
            const [name = '', value = ''] = zstrings(data);
            added.push({ name, value });
            break;
          }
          case 'i':
          case 'm': {
            const index = data.readUInt32BE(0);
            const [name = '', value = ''] = zstrings(data.subarray(4));
            (cmd === 'i' ? inserted : changed).push({ index, name, value });
            break;
          }
          case 'p':
            break; // progress
          default:
            // Body, recipient or sender changes: not applied by this client.
            break;
        }
      }
    };
    const port2 = Buffer.alloc(2);
    port2.writeUInt16BE(m.client.port);
    const final = (a: MilterAction) => a.kind !== 'continue';
    const steps: Buffer[] = [
      Buffer.concat([
        macros('C', { j: 'mx.mailroom.test', '{daemon_name}': 'mailroom-test', v: 'Postfix 3.7' }),
        packet('C', z(m.client.name), Buffer.from('4'), port2, z(m.client.address)),
      ]),
      packet('H', z(m.helo)),
      Buffer.concat([
        macros('M', {
          i: 'TESTQUEUEID',
          '{mail_addr}': m.from,
          ...(m.authUser ? { '{auth_authen}': m.authUser, '{auth_type}': 'PLAIN' } : {}),
        }),
        packet('M', z(`<${m.from}>`)),
      ]),
      ...m.rcpt.map((r) => Buffer.concat([macros('R', { '{rcpt_addr}': r }), packet('R', z(`<${r}>`))])),
      packet('T'),
      ...m.headers.map(([k, v]) => packet('L', z(k), z(v))),
      packet('N'),
      packet('B', Buffer.from(m.body, 'latin1')),
    ];
    let action: MilterAction = { kind: 'continue' };
    for (const s of steps) {
      action = await step(s);
      if (final(action)) break;
    }
    if (!final(action)) action = await step(packet('E'));
    c.send(packet('Q'));
    return { action, inserted, added, changed, message: applyChanges(m, inserted, added, changed) };
  } finally {
    c.close();
  }
}

/** The header block after the milter's changes, the way Postfix applies them. */
function applyChanges(
  m: MilterMessage,
  inserted: MilterResult['inserted'],
  added: MilterResult['added'],
  changed: MilterResult['changed'],
): string {
  const headers = m.headers.map(([k, v]) => [k, v] as [string, string | null]);
  for (const ch of changed) {
    // index: the n-th (1-based) header of that name; an empty value deletes it.
    let seen = 0;
    const at = headers.findIndex(([k]) => k.toLowerCase() === ch.name.toLowerCase() && ++seen === ch.index);
    if (at >= 0) headers[at] = [ch.name, ch.value === '' ? null : ch.value];
    else if (ch.value !== '') headers.push([ch.name, ch.value]);
  }
  for (const ins of inserted) headers.splice(Math.min(ins.index, headers.length), 0, [ins.name, ins.value]);
  for (const a of added) headers.push([a.name, a.value]);
  const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
  const head = headers
    .filter((h): h is [string, string] => h[1] !== null)
    .map(([k, v]) => `${k}: ${crlf(v)}\r\n`)
    .join('');
  return `${head}\r\n${crlf(m.body)}`;
}

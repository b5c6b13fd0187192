import net from 'node:net';

/**
 * A minimal FastCGI client (responder role, one request per connection): asks a PHP-FPM pool for
 * one script directly on its socket, the way Apache's mod_proxy_fcgi does. Used to health-check a
 * PHP application's new release before Apache is switched to it.
 */

const VERSION = 1;
const BEGIN_REQUEST = 1;
const END_REQUEST = 3;
const PARAMS = 4;
const STDIN = 5;
const STDOUT = 6;
const STDERR = 7;
const RESPONDER = 1;
const MAX_CONTENT = 65535;

function record(type: number, content: Buffer, requestId = 1): Buffer {
  const out: Buffer[] = [];
  for (let off = 0; off === 0 || off < content.length; off += MAX_CONTENT) {
    const part = content.subarray(off, off + MAX_CONTENT);
    const pad = (8 - (part.length % 8)) % 8;
    const h = Buffer.alloc(8);
    h.writeUInt8(VERSION, 0);
    h.writeUInt8(type, 1);
    h.writeUInt16BE(requestId, 2);
    h.writeUInt16BE(part.length, 4);
    h.writeUInt8(pad, 6);
    out.push(h, part, Buffer.alloc(pad));
    if (content.length === 0) break;
  }
  return Buffer.concat(out);
}

function length(n: number): Buffer {
  if (n < 128) return Buffer.from([n]);
  const b = Buffer.alloc(4);
  b.writeUInt32BE((n | 0x80000000) >>> 0);
  return b;
}

/** FastCGI name-value pairs. */
export function encodeParams(params: Record<string, string>): Buffer {
  return Buffer.concat(
    Object.entries(params).flatMap(([k, v]) => {
      const kb = Buffer.from(k);
      const vb = Buffer.from(v);
      return [length(kb.length), length(vb.length), kb, vb];
    }),
  );
}

export interface FastCgiAnswer {
  /** HTTP status the script answered (its Status header, else 200). */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What the script wrote to FastCGI's stderr (PHP warnings). */
  stderr: string;
}

/**
 * One request to a FastCGI server on a Unix socket. Answers null when nothing answered within
 * `timeoutMs` (no socket, a refused connection, a script that runs too long).
 */
export function fastCgiRequest(
  socketPath: string,
  params: Record<string, string>,
  timeoutMs: number,
): Promise<FastCgiAnswer | null> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    let pending = Buffer.alloc(0);
    let stdout = Buffer.alloc(0);
    let stderr = '';
    let done = false;
    const finish = (a: FastCgiAnswer | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(a);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    sock.once('error', () => finish(null));
    sock.once('close', () => finish(null));
    sock.once('connect', () => {
      const begin = Buffer.alloc(8);
      begin.writeUInt16BE(RESPONDER, 0);
      sock.write(
        Buffer.concat([
          record(BEGIN_REQUEST, begin),
          record(PARAMS, encodeParams(params)),
          record(PARAMS, Buffer.alloc(0)),
          record(STDIN, Buffer.alloc(0)),
        ]),
      );
    });
    sock.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      while (pending.length >= 8) {
        const type = pending.readUInt8(1);
        const len = pending.readUInt16BE(4);
        const pad = pending.readUInt8(6);
        if (pending.length < 8 + len + pad) break;
        const content = pending.subarray(8, 8 + len);
        pending = pending.subarray(8 + len + pad);
        if (type === STDOUT) stdout = Buffer.concat([stdout, content]);
        else if (type === STDERR) stderr += content.toString('utf8');
        else if (type === END_REQUEST) {
          finish(parseAnswer(stdout, stderr));
          return;
        }
      }
    });
  });
}

/** The CGI answer: headers (Status: sets the status), a blank line, the body. */
export function parseAnswer(stdout: Buffer, stderr: string): FastCgiAnswer {
  const text = stdout.toString('utf8');
  const m = /\r?\n\r?\n/.exec(text);
  const head = m ? text.slice(0, m.index) : '';
  const body = m ? text.slice(m.index + m[0].length) : text;
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(/^(\d{3})/.exec(headers.status ?? '')?.[1] ?? (headers.location ? 302 : 200));
  return { status, headers, body, stderr };
}

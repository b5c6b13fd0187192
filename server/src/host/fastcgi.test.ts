import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeParams, fastCgiRequest, parseAnswer } from './fastcgi.ts';

/** Decodes FastCGI name-value pairs (the server side of encodeParams). */
function decodeParams(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  const len = () => {
    if (b[i]! < 128) return b[i++]!;
    const n = b.readUInt32BE(i) & 0x7fffffff;
    i += 4;
    return n;
  };
  while (i < b.length) {
    const k = len();
    const v = len();
    out[b.subarray(i, i + k).toString()] = b.subarray(i + k, i + k + v).toString();
    i += k + v;
  }
  return out;
}

const rec = (type: number, content: Buffer) => {
  const h = Buffer.alloc(8);
  h.writeUInt8(1, 0);
  h.writeUInt8(type, 1);
  h.writeUInt16BE(1, 2);
  h.writeUInt16BE(content.length, 4);
  return Buffer.concat([h, content]);
};

describe('the FastCGI client of the PHP health checks', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-fcgi-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sends the parameters (long values too) and reads the status a script set', async () => {
    const sock = path.join(dir, 'pool.sock');
    let seen: Record<string, string> = {};
    const server = net.createServer((c) => {
      let buf = Buffer.alloc(0);
      let params = Buffer.alloc(0);
      c.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 8) {
          const type = buf.readUInt8(1);
          const len = buf.readUInt16BE(4);
          const pad = buf.readUInt8(6);
          if (buf.length < 8 + len + pad) return;
          const content = buf.subarray(8, 8 + len);
          buf = buf.subarray(8 + len + pad);
          if (type === 4) params = Buffer.concat([params, content]);
          if (type === 5 && len === 0) {
            seen = decodeParams(params);
            c.write(
              rec(6, Buffer.from('Status: 503 Service Unavailable\r\nContent-Type: text/plain\r\n\r\ndown')),
            );
            c.write(rec(7, Buffer.from('PHP Warning: x')));
            c.end(rec(3, Buffer.alloc(8)));
          }
        }
      });
    });
    await new Promise<void>((r) => server.listen(sock, r));
    const long = 'v'.repeat(4000);
    const a = await fastCgiRequest(sock, { SCRIPT_FILENAME: '/srv/r/1/health.php', LONG: long }, 2000);
    server.close();
    expect(seen).toEqual({ SCRIPT_FILENAME: '/srv/r/1/health.php', LONG: long });
    expect(a).toEqual({
      status: 503,
      headers: { status: '503 Service Unavailable', 'content-type': 'text/plain' },
      body: 'down',
      stderr: 'PHP Warning: x',
    });
  });

  it('answers null when nothing listens, and 200 when a script sets no status', async () => {
    expect(await fastCgiRequest(path.join(dir, 'none.sock'), {}, 500)).toBeNull();
    expect(parseAnswer(Buffer.from('Content-Type: text/html\r\n\r\nok'), '').status).toBe(200);
    expect(parseAnswer(Buffer.from('Location: /wp-admin/install.php\r\n\r\n'), '').status).toBe(302);
    expect(encodeParams({ A: 'b' })).toEqual(Buffer.from([1, 1, 0x41, 0x62]));
  });
});

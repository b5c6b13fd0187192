import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Host } from '../../../host/host.ts';
import { keyProblem } from './acme-keys.rules.ts';
import { listenerSink, webrootSink } from './http-challenge.service.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

describe('HTTP-01 answers', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'acme-http-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("Mailroom's listener answers only pending tokens and stops when the last order is done", async () => {
    const port = await freePort();
    const url = (t: string) => `http://127.0.0.1:${port}/.well-known/acme-challenge/${t}`;
    const a = await listenerSink(port);
    const b = await listenerSink(port);
    await a.put('tokA', 'tokA.thumb');
    await b.put('tokB', 'tokB.thumb');
    expect(await (await fetch(url('tokA'))).text()).toBe('tokA.thumb');
    expect((await fetch(url('unknown'))).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    await a.close();
    expect((await fetch(url('tokA'))).status).toBe(404);
    expect(await (await fetch(url('tokB'))).text()).toBe('tokB.thumb');
    await b.close();
    await expect(fetch(url('tokB'))).rejects.toThrow();
  });

  it('names the setting when the port is taken', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, r));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      await expect(listenerSink(port)).rejects.toThrow(/MAILROOM_ACME_HTTP_PORT/);
    } finally {
      busy.close();
    }
  });

  it('writes token files under the webroot (host root mapped) and removes them', async () => {
    const host = new Host(root, false);
    const sink = webrootSink(host, '/var/www/html');
    await sink.put('tok_1-x', 'tok_1-x.thumb');
    const file = path.join(root, 'var/www/html/.well-known/acme-challenge/tok_1-x');
    expect(readFileSync(file, 'utf8')).toBe('tok_1-x.thumb');
    await expect(sink.put('../evil', 'x')).rejects.toThrow(/not a file name/);
    await sink.close();
    expect(existsSync(file)).toBe(false);
  });
});

describe('ACME key choices', () => {
  it('takes RSA 2048/3072/4096 and ECDSA P-256/P-384, refuses Ed25519 with the reason', () => {
    for (const size of [2048, 3072, 4096]) expect(keyProblem({ algorithm: 'RSA', size })).toBeNull();
    for (const size of [256, 384]) expect(keyProblem({ algorithm: 'ECDSA', size })).toBeNull();
    expect(keyProblem({ algorithm: 'RSA', size: 1024 })).toMatch(/2048, 3072 or 4096/);
    expect(keyProblem({ algorithm: 'ECDSA', size: 521 })).toMatch(/P-256 or P-384/);
    expect(keyProblem({ algorithm: 'Ed25519', size: 256 })).toMatch(/do not issue certificates for Ed25519/);
  });
});

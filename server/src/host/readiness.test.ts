import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probe } from './readiness.ts';

/** A TCP server on a free loopback port; `greet`: what it sends on each connection (nothing: silent). */
async function server(greet: string | null): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    if (greet !== null) sock.write(greet);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    port: (s.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const x of sockets) x.destroy();
        s.close(() => r());
      }),
  };
}

describe('readiness probe', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it('a port that accepts but never greets is not a running SMTP server (Postfix with its sockets gone)', async () => {
    const silent = await server(null);
    open.push(silent);
    expect(await probe({ tcp: { host: '127.0.0.1', port: silent.port } })).toBe(true);
    expect(await probe({ tcp: { host: '127.0.0.1', port: silent.port, greeting: '220' } }, 300)).toBe(false);
  }, 10_000);

  it('answers true once the server greets as asked, false for another greeting', async () => {
    const smtp = await server('220 mx.example.org ESMTP\r\n');
    const err = await server('421 Service not available\r\n');
    open.push(smtp, err);
    expect(await probe({ tcp: { host: '127.0.0.1', port: smtp.port, greeting: '220' } })).toBe(true);
    expect(await probe({ tcp: { host: '127.0.0.1', port: err.port, greeting: '220' } })).toBe(false);
  });
});

import http from 'node:http';
import net from 'node:net';

/** A loopback port nobody listens on, from `from` up (a bind proves it). */
export async function freeLoopbackPort(from: number, skip: ReadonlySet<number> = new Set()): Promise<number> {
  for (let p = Math.max(1024, from); p < 65535; p++) {
    if (skip.has(p)) continue;
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return p;
  }
  throw new Error('no free loopback port');
}

/** GET http://127.0.0.1:port/path: the status, or null when nothing answered in time. */
export function probeHttp(port: number, urlPath: string, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: urlPath, timeout: timeoutMs, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** Whether something accepts TCP connections on the loopback port. */
export function probeTcp(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(false));
  });
}

import { promises as fs } from 'node:fs';
import net from 'node:net';

/** How the supervisor knows a daemon is serving: a TCP port or a Unix socket that accepts, or a file. */
export type ReadinessProbe = { tcp: { host: string; port: number } } | { socket: string } | { file: string };

/** Connects once (or checks the file); true when the daemon answers. */
export async function probe(p: ReadinessProbe, timeoutMs = 1000): Promise<boolean> {
  if ('file' in p) {
    try {
      await fs.access(p.file);
      return true;
    } catch {
      return false;
    }
  }
  return new Promise((resolve) => {
    const sock = 'tcp' in p ? net.connect(p.tcp.port, p.tcp.host) : net.connect(p.socket);
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

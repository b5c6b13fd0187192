import { promises as fs } from 'node:fs';
import net from 'node:net';

/**
 * How the supervisor knows a daemon is serving: a TCP port or a Unix socket that accepts, or a file.
 * `greeting`: the start of the first line the server must send (`220` for SMTP, `* OK` for IMAP).
 * A port that only accepts is not enough there: Postfix's master accepts while its smtpd cannot
 * start (its sockets gone, its lock not its own), and the client then waits for ever.
 */
export type ReadinessProbe =
  { tcp: { host: string; port: number; greeting?: string } } | { socket: string } | { file: string };

/** Connects once (or checks the file); true when the daemon answers (with its greeting when asked). */
export async function probe(p: ReadinessProbe, timeoutMs?: number): Promise<boolean> {
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
    const greeting = 'tcp' in p ? p.tcp.greeting : undefined;
    // A greeting can take a moment (the server forks its worker first).
    sock.setTimeout(timeoutMs ?? (greeting ? 5000 : 1000), () => done(false));
    if (greeting) {
      let buf = '';
      sock.on('data', (d: Buffer) => {
        buf += d.toString('latin1');
        if (buf.length >= greeting.length || buf.includes('\n')) done(buf.startsWith(greeting));
      });
      sock.once('end', () => done(false));
    } else sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

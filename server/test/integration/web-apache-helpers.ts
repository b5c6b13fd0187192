import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { localApacheDaemon } from '../../src/features/web/web.module.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The folders above a test's data folder must be traversable by Apache's user (www-data). */
export function openForApache(dir: string): void {
  let d = dir;
  while (d !== '/' && d !== path.dirname(d)) {
    try {
      chmodSync(d, 0o755);
    } catch {
      /* not ours */
    }
    d = path.dirname(d);
    if (d === '/tmp' || d === '/') break;
  }
}

/** Apache as a plain process on Mailroom's rendered files, unedited (-d/-f, -DFOREGROUND), pid-tracked. */
export class ApacheProcess {
  child: ChildProcess | null = null;
  output = '';
  constructor(
    readonly dir: string,
    readonly pidFile: string,
  ) {}

  async start(port: number): Promise<void> {
    this.child = spawn(
      'apache2',
      ['-d', this.dir, '-f', path.join(this.dir, 'apache2.conf'), '-DFOREGROUND'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`apache2 exited: ${this.output}`);
      if (existsSync(this.pidFile) && (await portOpen(port))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`apache2 did not answer on ${port}: ${this.output}`);
  }

  /** The master's pid, from its own pid file. */
  masterPid(): number {
    return Number(readFileSync(this.pidFile, 'utf8').trim());
  }

  async stop(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    const done = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
    if (c.exitCode === null) c.kill('SIGKILL');
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  fingerprint: string | null;
}

/** A real HTTP(S) request to 127.0.0.1 with a Host header (and SNI), from a chosen source address. */
export function request(
  port: number,
  hostName: string,
  opts: { path?: string; tls?: boolean; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const o = {
      host: '127.0.0.1',
      port,
      path: opts.path ?? '/',
      headers: { host: hostName, ...(opts.headers ?? {}) },
      agent: false as const,
      ...(opts.from ? { localAddress: opts.from } : {}),
    };
    const done = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      const sock = res.socket as TLSSocket | null;
      const cert =
        opts.tls && sock && typeof sock.getPeerCertificate === 'function' ? sock.getPeerCertificate() : null;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('latin1'),
          fingerprint: cert?.fingerprint256 ?? null,
        });
      });
    };
    const req = opts.tls
      ? https.get({ ...o, servername: hostName, rejectUnauthorized: false }, done)
      : http.get(o, done);
    req.on('error', reject);
  });
}

/**
 * Mailroom on SQLite with its own supervised Apache on free loopback ports (as local mode runs it),
 * once the web dashboard says Apache runs.
 */
export async function startWithLocalApache(
  waitMs = 30_000,
  env: Record<string, string> = {},
): Promise<{ t: TestContext; httpPort: number }> {
  const httpPort = await freePort();
  const t = await startTestApp('sqlite', {
    env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(await freePort()), ...env },
    webDaemon: (host, config) => localApacheDaemon(host, config),
  });
  openForApache(t.dataDir);
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    const d = (await t.call({ method: 'GET', url: '/api/web/dashboard' })).json<{
      status: { state: string }[];
    }>();
    if (d.status[0]!.state === 'running') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { t, httpPort };
}

/**
 * Whether Apache, PHP-FPM 8.2 and root are all here for a PHP-FPM test; when not, says so loudly
 * (naming the Debian package) with what is not tested.
 */
export function phpStackHere(what: string): boolean {
  const have = (cmd: string) => spawnSync(cmd, ['-v'], { stdio: 'ignore' }).status === 0;
  const missing =
    process.getuid?.() !== 0
      ? 'root'
      : !have('php-fpm8.2')
        ? 'php-fpm8.2 (Debian package php8.2-fpm)'
        : !have('apache2')
          ? 'apache2 (Debian package apache2)'
          : null;
  if (missing) skipLoudly(`${missing} is missing: ${what} is not tested`);
  return missing === null;
}

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { AppDeps } from '../src/app-deps.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { addAdmin } from '../src/features/auth/admin.service.ts';
import { Host } from '../src/host/host.ts';
import type { ReloadResult, ServiceControl } from '../src/host/service-control.ts';
import { freeTcpUdpPort } from './free-udp-port.ts';

/**
 * An ACME laboratory for the pebble tests and the acme bench (no vitest here): Mailroom on a fresh
 * SQLite database with one DNS zone, `named` started on Mailroom's rendered configuration (reloaded
 * by the DNS pipeline through a SIGHUP control), and Debian's pebble resolving through that named
 * and validating HTTP-01 on Mailroom's challenge listener port.
 */
const PEBBLE = ['/usr/bin/pebble', '/usr/sbin/pebble'].find((p) => existsSync(p));
const NAMED = ['/usr/sbin/named', '/usr/bin/named'].find((p) => existsSync(p));
const CHECKCONF = ['/usr/bin/named-checkconf', '/usr/sbin/named-checkconf'].find((p) => existsSync(p));
const OPENSSL = ['/usr/bin/openssl'].find((p) => existsSync(p));

/** The programs missing for the lab, named with their Debian packages ('' when all are there). */
export const ACME_LAB_MISSING = [
  !PEBBLE ? 'pebble (Debian package pebble)' : '',
  !NAMED ? 'named (Debian package bind9)' : '',
  !CHECKCONF ? 'named-checkconf (Debian package bind9-utils)' : '',
  !OPENSSL ? 'openssl (Debian package openssl)' : '',
]
  .filter(Boolean)
  .join(' and ');

const ADMIN = { email: 'admin@example.com', password: 'correct-horse-battery' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

const running = (p: ChildProcess | null) => !!p && p.exitCode === null && p.signalCode === null;

async function waitForLog(proc: ChildProcess, log: () => string, re: RegExp, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (re.test(log())) return;
    if (!running(proc)) throw new Error(`${what} exited:\n${log()}`);
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}:\n${log()}`);
}

async function stop(proc: ChildProcess | null) {
  if (!proc?.pid || !running(proc)) return;
  const done = new Promise((r) => proc.once('exit', r));
  process.kill(proc.pid, 'SIGTERM');
  await Promise.race([done, sleep(5000)]);
  if (running(proc)) process.kill(proc.pid, 'SIGKILL');
}

/** A CA and a server certificate for pebble's own HTTPS (the directory), made with openssl. */
function makeTlsFiles(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => path.join(dir, n);
  const run = (args: string[]) => {
    const r = spawnSync(OPENSSL as string, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  };
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('ca.key')]);
  run([
    'req',
    '-x509',
    '-new',
    '-key',
    f('ca.key'),
    '-subj',
    '/CN=acme-lab CA',
    '-days',
    '2',
    '-out',
    f('ca.pem'),
  ]);
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('server.key')]);
  run(['req', '-new', '-key', f('server.key'), '-subj', '/CN=localhost', '-out', f('server.csr')]);
  writeFileSync(f('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', f('ext.cnf'), '-out', f('server.pem'),
  ]); // prettier-ignore
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

export interface AcmeLab {
  deps: AppDeps;
  app: FastifyInstance;
  /** pebble's directory, trusted through MAILROOM_ACME_CA_FILE. */
  directoryUrl: string;
  call(
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  namedLog(): string;
  close(): Promise<void>;
}

export async function startAcmeLab(opts: {
  zone: string;
  /** Names in the zone given `A 127.0.0.1` (relative; '@' for the apex). */
  addresses: string[];
  /** pebble's certificateValidityPeriod, seconds. */
  validitySeconds: number;
  /** More Mailroom settings (daemon ports, the renewal scheduler's tick). */
  env?: Record<string, string>;
  /** Reloads other services than named (the mail daemons a test runs), as the supervisor would. */
  reload?: (name: string) => Promise<ReloadResult>;
}): Promise<AcmeLab> {
  if (ACME_LAB_MISSING) throw new Error(`${ACME_LAB_MISSING} missing`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mailroom-acme-'));
  let named: ChildProcess | null = null;
  let pebble: ChildProcess | null = null;
  let namedLog = '';
  let pebbleLog = '';
  let app: FastifyInstance | null = null;
  const dataDir = path.join(tmp, 'data');
  const database = openDatabase({ dataDir: (mkdirSync(dataDir), dataDir) });
  const close = async () => {
    await stop(pebble);
    await stop(named);
    await app?.close();
    await database.close();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const tlsFiles = makeTlsFiles(tmp);
    const dnsPort = await freeTcpUdpPort();
    const httpPort = await freeTcpPort();
    const [acmePort, mgmtPort, tlsPort] = [await freeTcpPort(), await freeTcpPort(), await freeTcpPort()];
    const config = loadConfig({
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_WEB_DIST: path.join(tmp, 'no-web'),
      MAILROOM_ACME_HTTP_PORT: String(httpPort),
      MAILROOM_ACME_CA_FILE: tlsFiles.ca,
      ...opts.env,
    });
    await migrateToLatest(database.db);
    await addAdmin(database.db, ADMIN.email, ADMIN.password);
    // named is reloaded by the DNS apply pipeline through this control, as the supervisor would.
    const services: ServiceControl = {
      async reload(name): Promise<ReloadResult> {
        if (name !== 'named' && opts.reload) return opts.reload(name);
        if (name !== 'named' || !named?.pid || !running(named))
          return { ok: true, attempted: false, output: 'not running' };
        process.kill(named.pid, 'SIGHUP');
        return { ok: true, attempted: true, output: 'SIGHUP' };
      },
      states: async () => [],
      close: async () => undefined,
    };
    const host = new Host(config.hostRoot, false);
    const deps: AppDeps = { config, database, host, services };
    app = await buildApp(deps);
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    const token = login.json<{ api_key: string }>().api_key;
    const a = app;
    const call: AcmeLab['call'] = async (method, url, payload) => {
      const res = await a.inject({
        method,
        url: `/api/${url}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
      return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
    };
    const must = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = await call(method, url, payload);
      if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };

    const settings = await must('GET', 'dns/settings');
    await must('POST', 'dns/settings', {
      ...settings,
      serverPort: dnsPort,
      enableIPv6: false,
      allowRecursiveQueries: false,
    });
    await must('POST', 'dns/zones/add', {
      domain: opts.zone,
      zoneType: 'primary',
      primaryNs: `ns1.${opts.zone}`,
      nsAddress: '127.0.0.1',
      adminEmail: 'hostmaster@example.org',
      serial: 1,
      refresh: 3600,
      retry: 1800,
      expire: 604800,
    });
    for (const qname of opts.addresses)
      await must('POST', `dns/zones/${opts.zone}/records`, {
        qname,
        rtype: 'A',
        value: '127.0.0.1',
        ttl: 300,
      });

    mkdirSync(host.path('/run/named'), { recursive: true });
    named = spawn(NAMED as string, ['-g', '-c', host.path('/etc/bind/mailroom/named.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    named.stdout?.on('data', (d: Buffer) => (namedLog += d.toString()));
    named.stderr?.on('data', (d: Buffer) => (namedLog += d.toString()));
    // "running" alone on a line: startup done (the first lines say "running on Linux …").
    await waitForLog(named, () => namedLog, /\srunning\s*$/m, 'named');

    const pebbleConfig = path.join(tmp, 'pebble.json');
    writeFileSync(
      pebbleConfig,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${mgmtPort}`,
          certificate: tlsFiles.cert,
          privateKey: tlsFiles.key,
          httpPort,
          tlsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
          certificateValidityPeriod: opts.validitySeconds,
        },
      }),
    );
    pebble = spawn(PEBBLE as string, ['-config', pebbleConfig, '-dnsserver', `127.0.0.1:${dnsPort}`], {
      cwd: tmp,
      // No artificial validation delay, no rejected nonces, every order validated afresh.
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pebble.stdout?.on('data', (d: Buffer) => (pebbleLog += d.toString()));
    pebble.stderr?.on('data', (d: Buffer) => (pebbleLog += d.toString()));
    await waitForLog(pebble, () => pebbleLog, /Listening on/, 'pebble');
    return {
      deps,
      app,
      directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
      call,
      namedLog: () => namedLog,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

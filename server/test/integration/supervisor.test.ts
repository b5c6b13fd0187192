import { type ChildProcess, spawn } from 'node:child_process';
import { promises as dns } from 'node:dns';
import dgram from 'node:dgram';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalServices } from '../../src/host/local-services.ts';
import type { DaemonState } from '../../src/host/service-control.ts';
import { isAlive } from '../../src/host/supervisor.ts';
import { startTestApp, type TestContext } from '../harness.ts';

// ---- what this test needs from the machine -------------------------------------------------

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;
const missing = [
  !which('named') ? 'named (Debian package bind9)' : '',
  !which('dovecot') || !which('doveadm') ? 'dovecot (Debian package dovecot-core)' : '',
  !existsSync('/usr/lib/dovecot/imap') ? 'the IMAP server (Debian package dovecot-imapd)' : '',
  !which('postfix') ? 'postfix (Debian package postfix)' : '',
  process.getuid?.() !== 0 ? 'root (Mailroom only runs the daemons as root)' : '',
].filter(Boolean);
if (missing.length) {
  const msg = `${missing.join(', ')} missing: the supervisor integration tests are SKIPPED`;
  if (process.env.MAILROOM_REQUIRE_ALL === '1') throw new Error(`${msg} and MAILROOM_REQUIRE_ALL=1`);
  process.stderr.write(`\n!!! ${msg} !!!\n\n`);
}

/**
 * Until the mail renderer listens on config.ports and no longer needs a `vmail` user (issue 7,
 * item 1: MAIL's branch), a drop-in beside the rendered files moves Dovecot to the test's loopback
 * ports and to the existing `mail` user. The rendered files themselves are not edited. Remove this
 * when the renderer does both.
 */
function todaysDovecotDropIn(imap: number, imaps: number): string {
  return [
    'listen = 127.0.0.1',
    'service imap-login {',
    `  inet_listener imap {\n    port = ${imap}\n  }`,
    `  inet_listener imaps {\n    port = ${imaps}\n  }`,
    '}',
    'mail_uid = mail',
    'mail_gid = mail',
    'service auth {\n  unix_listener auth-userdb {\n    user = mail\n  }\n}',
    'service dict {\n  unix_listener dict {\n    user = mail\n    group = mail\n  }\n}',
    '',
  ].join('\n');
}
const DROP_IN = '/etc/dovecot/conf.d/99-test-ports.conf';

// ---- helpers --------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port free for both TCP and UDP on 127.0.0.1 (named takes both). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const u = dgram.createSocket('udp4');
      u.once('error', () => resolve(false));
      u.bind(port, '127.0.0.1', () => u.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

async function eventually<T>(
  what: string,
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (ok(v)) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    await sleep(150);
  }
  throw new Error(
    `timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
  );
}

/** The first line a TCP server sends (IMAP and SMTP greet first). */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    sock.setTimeout(5000, () => {
      sock.destroy();
      reject(new Error(`no greeting on ${port}`));
    });
    sock.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) {
        sock.destroy();
        resolve(buf.split('\n')[0]?.trim() ?? '');
      }
    });
    sock.on('error', reject);
  });
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(false);
    });
    sock.once('error', () => resolve(true));
  });

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
};
const ppidOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
};
/** Alive and not a zombie (an exited child nobody reaped yet is gone for our purpose). */
const running = (pid: number) => {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};
const allPids = () =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
/** Every process below `root` (children, grandchildren…). */
function descendants(root: number): number[] {
  const pids = allPids();
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of pids.filter((x) => ppidOf(x) === p)) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}
/** Processes whose command line names the data folder (the daemons started on its files). */
const usingFolder = (dir: string) => allPids().filter((p) => p !== process.pid && cmdline(p).includes(dir));

const byName = (states: DaemonState[], name: string) => states.find((s) => s.name === name) as DaemonState;
const ZONE = 'supervised.test';

// ---- in process: the supervisor behind the app ----------------------------------------------

describe.skipIf(missing.length > 0)('the supervisor runs the real daemons from the rendered files', () => {
  let t: TestContext;
  let services: LocalServices;
  const ports = { smtp: 0, submission: 0, imap: 0, imaps: 0, dns: 0 };
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };

  beforeAll(async () => {
    for (const k of Object.keys(ports) as (keyof typeof ports)[]) ports[k] = await freePort();
    resolver.setServers([`127.0.0.1:${ports.dns}`]);
    t = await startTestApp('sqlite', {
      env: {
        MAILROOM_SMTP_PORT: String(ports.smtp),
        MAILROOM_SUBMISSION_PORT: String(ports.submission),
        MAILROOM_IMAP_PORT: String(ports.imap),
        MAILROOM_IMAPS_PORT: String(ports.imaps),
        MAILROOM_DNS_PORT: String(ports.dns),
      },
      services: async (host, config) => {
        mkdirSync(path.dirname(host.path(DROP_IN)), { recursive: true });
        writeFileSync(host.path(DROP_IN), todaysDovecotDropIn(ports.imap, ports.imaps));
        services = await LocalServices.create(host, config, {
          backoffMs: 300,
          maxCrashes: 3,
          readyTimeoutMs: 20_000,
          stopTimeoutMs: 10_000,
        });
        return services;
      },
    });
    expect(services.runs).toEqual({ yes: true, reason: null });
    // The mail files are rendered at start; start() waits for them.
    await services.start(30_000);
  }, 120_000);

  afterAll(async () => {
    await services?.close();
    const left = t ? usingFolder(t.dataDir) : [];
    for (const p of left) process.kill(p, 'SIGKILL');
    await t?.close();
  });

  it('starts Dovecot from dovecot.conf; it answers IMAP on its port with the pid in its pid file', async () => {
    const dovecot = byName(await services.states(), 'dovecot');
    expect(dovecot.state, dovecot.detail).toBe('running');
    const pidFile = t.deps.host.path('/run/dovecot/master.pid');
    expect(dovecot.pid).toBe(Number(readFileSync(pidFile, 'utf8').trim()));
    expect(cmdline(dovecot.pid as number)).toContain(t.deps.host.path('/etc/dovecot/dovecot.conf'));
    expect(await greeting(ports.imap)).toMatch(/^\* OK/);
  });

  it('reports Postfix and the filter as they really are', async () => {
    const states = await services.states();
    const postfix = byName(states, 'postfix');
    if (postfix.state === 'running') {
      expect(await greeting(ports.smtp)).toMatch(/^220 /);
    } else {
      // Today's main.cf does not start (issue 7, item 1: maillog_file, ports): said plainly.
      process.stderr.write(`\n!!! postfix does not start from today's render: ${postfix.detail} !!!\n\n`);
      expect(postfix.state).toBe('failed');
      expect(postfix.detail).toMatch(/exited|did not answer/);
    }
    const rspamd = byName(states, 'rspamd');
    if (existsSync(t.deps.host.path('/etc/rspamd/rspamd.conf'))) {
      expect(rspamd.state, rspamd.detail).toBe('running');
    } else {
      expect(rspamd.state).toBe('stopped');
      expect(rspamd.detail).toContain('has not been rendered yet');
    }
  });

  it("the Mail dashboard shows each daemon's state from Mailroom's own instance", async () => {
    const res = await call('GET', 'mail/dashboard');
    expect(res.status).toBe(200);
    const daemons = res.body.daemons as DaemonState[];
    expect(daemons.map((d) => d.name)).toEqual(['postfix', 'dovecot', 'rspamd']);
    const dovecot = byName(daemons, 'dovecot');
    expect(dovecot.state).toBe('running');
    expect(dovecot.pid).toBe(byName(await services.states(), 'dovecot').pid);
    const services_ = res.body.services as { name: string; running: boolean }[];
    expect(services_).toContainEqual({ name: 'dovecot', running: true });
    expect(res.body.serverStatus).toBe(byName(daemons, 'postfix').state === 'running' ? 'online' : 'offline');
  });

  it('reloads Dovecot with doveadm: same master, still answering', async () => {
    const before = byName(await services.states(), 'dovecot').pid;
    const r = await services.reload('dovecot');
    expect(r, r.output).toMatchObject({ ok: true, attempted: true });
    expect(r.output).toContain('doveadm');
    await sleep(500);
    expect(byName(await services.states(), 'dovecot').pid).toBe(before);
    expect(await greeting(ports.imap)).toMatch(/^\* OK/);
  });

  it('starts named on MAILROOM_DNS_PORT once its files are rendered, and a reload serves the change', async () => {
    expect(byName(await services.states(), 'named').detail).toContain('not been rendered');
    const zone = await call('POST', 'dns/zones/add', {
      domain: ZONE,
      zoneType: 'primary',
      primaryNs: `ns1.${ZONE}`,
      nsAddress: '192.0.2.53',
      adminEmail: 'hostmaster@example.org',
      serial: 1,
      refresh: 3600,
      retry: 1800,
      expire: 604800,
    });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const options = readFileSync(t.deps.host.path('/etc/bind/mailroom/options.conf'), 'utf8');
    expect(options).toContain(`listen-on port ${ports.dns} { 127.0.0.1; };`);

    const started = await services.reload('named');
    expect(started, started.output).toMatchObject({ ok: true, attempted: true });
    const named = byName(await services.states(), 'named');
    expect(named.state, named.detail).toBe('running');
    expect(cmdline(named.pid as number)).toContain(t.deps.host.path('/etc/bind/mailroom/named.conf'));
    expect((await resolver.resolveSoa(ZONE)).nsname).toBe(`ns1.${ZONE}`);

    const rec = await call('POST', `dns/zones/${ZONE}/records`, {
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.80',
      ttl: 300,
    });
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    const reloaded = await services.reload('named');
    expect(reloaded).toMatchObject({ ok: true, attempted: true });
    expect(reloaded.output).toContain('SIGHUP');
    await eventually(
      'the new record',
      () => resolver.resolve4(`www.${ZONE}`),
      (a) => a[0] === '192.0.2.80',
    );
  });

  it('restarts a crashed daemon (Dovecot killed with SIGKILL) with a new pid', async () => {
    const before = byName(await services.states(), 'dovecot').pid as number;
    process.kill(before, 'SIGKILL');
    const after = await eventually(
      'dovecot to come back',
      async () => byName(await services.states(), 'dovecot'),
      (s) => s.state === 'running' && s.pid !== before,
      30_000,
    );
    expect(after.detail).toContain('restarted 1 time');
    expect(
      await eventually(
        'IMAP again',
        () => greeting(ports.imap),
        (g) => g.startsWith('* OK'),
      ),
    ).toMatch(/^\* OK/);
  });

  it('close() stops every daemon: no process is left and the ports are closed', async () => {
    const pids = (await services.states()).flatMap((s) => (s.pid ? [s.pid] : []));
    expect(pids.length).toBeGreaterThanOrEqual(2);
    await services.close();
    expect(pids.filter(running)).toEqual([]);
    expect(usingFolder(t.dataDir).map((p) => `${p}: ${cmdline(p)}`)).toEqual([]);
    expect(await refused(ports.imap)).toBe(true);
    expect(await refused(ports.dns)).toBe(true);
    for (const s of await services.states()) expect(s.state).not.toBe('running');
  });
});

// ---- as a process: SIGTERM to Mailroom stops the daemons ------------------------------------

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

describe.skipIf(missing.length > 0)('SIGTERM to the Mailroom process', () => {
  let dataDir: string;
  let server: ChildProcess | null = null;
  afterAll(() => {
    if (server?.pid && server.exitCode === null) process.kill(server.pid, 'SIGKILL');
    for (const p of usingFolder(dataDir)) process.kill(p, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts the daemons after the first render and stops them all when it is stopped', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sup-proc-'));
    const [http, imap, imaps, smtp, submission, dnsPort] = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => freePort()),
    );
    const dropIn = path.join(dataDir, 'root', DROP_IN);
    mkdirSync(path.dirname(dropIn), { recursive: true });
    writeFileSync(dropIn, todaysDovecotDropIn(imap as number, imaps as number));
    server = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(http),
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
        MAILROOM_IMAP_PORT: String(imap),
        MAILROOM_IMAPS_PORT: String(imaps),
        MAILROOM_SMTP_PORT: String(smtp),
        MAILROOM_SUBMISSION_PORT: String(submission),
        MAILROOM_DNS_PORT: String(dnsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    server.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => server?.once('exit', (code) => r(code)));

    await eventually(
      'Dovecot run by Mailroom to answer',
      () => greeting(imap as number),
      (g) => g.startsWith('* OK'),
      60_000,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${out}`);
    });
    const tree = descendants(server.pid as number);
    const dovecot = tree.find((p) => cmdline(p).includes('dovecot.conf'));
    expect(dovecot, out).toBeDefined();

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(tree.filter(running).map((p) => `${p}: ${cmdline(p)}`)).toEqual([]);
    expect(usingFolder(dataDir)).toEqual([]);
    expect(await refused(imap as number)).toBe(true);
    expect(out).toContain('dovecot: running');
  }, 120_000);
});

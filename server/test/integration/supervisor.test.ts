import { type ChildProcess, spawn } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalServices } from '../../src/host/local-services.ts';
import type { DaemonState } from '../../src/host/service-control.ts';
import { isAlive } from '../../src/host/supervisor.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { ownNsZoneForm } from '../dns-zone-form.ts';
import { eventually, sleep } from '../eventually.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { which } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

// ---- what this test needs from the machine -------------------------------------------------

const missing = [
  !which('named') ? 'named (Debian package bind9)' : '',
  !which('dovecot') || !which('doveadm') ? 'dovecot (Debian package dovecot-core)' : '',
  !existsSync('/usr/lib/dovecot/imap') ? 'the IMAP server (Debian package dovecot-imapd)' : '',
  !which('postfix') ? 'postfix (Debian package postfix)' : '',
  !which('rspamd') ? 'rspamd (Debian package rspamd)' : '',
  process.getuid?.() !== 0 ? 'root (Mailroom only runs the daemons as root)' : '',
].filter(Boolean);
if (missing.length) {
  const msg = `${missing.join(', ')} missing: the supervisor integration tests are SKIPPED`;
  skipLoudly(msg);
}

// ---- helpers --------------------------------------------------------------------------------

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
const link = (p: string) => {
  try {
    return readlinkSync(p);
  } catch {
    return '';
  }
};
const environ = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
};
const openFiles = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => link(`/proc/${pid}/fd/${fd}`));
  } catch {
    return [];
  }
};
/**
 * Live processes started on the files under `dir`: their command line names it (dovecot -c,
 * named -c, postfix -c), their environment does (Postfix's master and its children carry
 * MAIL_CONFIG=<dir>/…/etc/postfix), they work in it (master in the queue, named in its folder) or
 * hold a file in it open (rspamd's workers, which rewrite their command line, hold its logs).
 */
const usingFolder = (dir: string) =>
  allPids().filter(
    (p) =>
      p !== process.pid &&
      running(p) &&
      (cmdline(p).includes(dir) ||
        environ(p).includes(dir) ||
        link(`/proc/${p}/cwd`).startsWith(dir) ||
        openFiles(p).some((f) => f.startsWith(dir))),
  );
const describeProcs = (pids: number[]) => pids.map((p) => `${p}: ${cmdline(p)}`);

const byName = (states: DaemonState[], name: string) => states.find((s) => s.name === name) as DaemonState;
const ZONE = 'supervised.test';
const PORT_VARS = {
  smtp: 'MAILROOM_SMTP_PORT',
  submission: 'MAILROOM_SUBMISSION_PORT',
  imap: 'MAILROOM_IMAP_PORT',
  imaps: 'MAILROOM_IMAPS_PORT',
  dns: 'MAILROOM_DNS_PORT',
  milter: 'MAILROOM_MILTER_PORT',
} as const;
type Ports = Record<keyof typeof PORT_VARS, number>;
async function freePorts(): Promise<Ports> {
  const out = {} as Ports;
  const taken = new Set<number>();
  for (const k of Object.keys(PORT_VARS) as (keyof Ports)[]) {
    let port = await freeTcpUdpPort();
    while (taken.has(port)) port = await freeTcpUdpPort();
    taken.add(port);
    out[k] = port;
  }
  return out;
}
const portEnv = (ports: Ports) =>
  Object.fromEntries(Object.entries(PORT_VARS).map(([k, v]) => [v, String(ports[k as keyof Ports])]));
/** rspamd's workers run as _rspamd: the test's mkdtemp folder (0700) must let them pass. */
const letDaemonsPass = (dataDir: string) => chmodSync(dataDir, 0o755);

// ---- in process: the supervisor behind the app ----------------------------------------------

describe.skipIf(missing.length > 0)('the supervisor runs the real daemons from the rendered files', () => {
  let t: TestContext;
  let services: LocalServices;
  let ports: Ports;
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const postfixDir = () => t.deps.host.path('/etc/postfix');

  beforeAll(async () => {
    ports = await freePorts();
    resolver.setServers([`127.0.0.1:${ports.dns}`]);
    t = await startTestApp('sqlite', {
      env: portEnv(ports),
      services: async (host, config) => {
        letDaemonsPass(path.dirname(host.root));
        services = await LocalServices.create(host, config, {
          backoffMs: 300,
          maxCrashes: 3,
          readyTimeoutMs: 60_000,
          stopTimeoutMs: 15_000,
        });
        return services;
      },
    });
    expect(services.runs).toEqual({ yes: true, reason: null });
    // The mail files are rendered at start; start() waits for them (named's only come with a zone).
    await services.start(30_000);
  }, 180_000);

  afterAll(async () => {
    await services?.close();
    const left = t ? usingFolder(t.dataDir) : [];
    for (const p of left) process.kill(p, 'SIGKILL');
    await t?.close();
  }, 60_000);

  it('starts Dovecot from dovecot.conf; it answers IMAP on its port with the pid in its pid file', async () => {
    const dovecot = byName(await services.states(), 'dovecot');
    expect(dovecot.state, dovecot.detail).toBe('running');
    const pidFile = t.deps.host.path('/run/dovecot/master.pid');
    expect(dovecot.pid).toBe(Number(readFileSync(pidFile, 'utf8').trim()));
    expect(cmdline(dovecot.pid as number)).toContain(t.deps.host.path('/etc/dovecot/dovecot.conf'));
    expect(await greeting(ports.imap)).toMatch(/^\* OK/);
  });

  it("starts Postfix from main.cf (postfix start-fg): master's pid, SMTP and submission answer", async () => {
    const postfix = byName(await services.states(), 'postfix');
    expect(postfix.state, postfix.detail).toBe('running');
    const pidFile = t.deps.host.path('/var/spool/postfix/pid/master.pid');
    expect(postfix.pid).toBe(Number(readFileSync(pidFile, 'utf8').trim()));
    expect(cmdline(postfix.pid as number)).toMatch(/master/);
    expect(environ(postfix.pid as number)).toContain(`MAIL_CONFIG=${postfixDir()}`);
    expect(await greeting(ports.smtp)).toMatch(/^220 /);
    expect(await greeting(ports.submission)).toMatch(/^220 /);
  });

  it('starts rspamd on the launch line of the filter: its pid, the milter port accepts', async () => {
    const rspamd = byName(await services.states(), 'rspamd');
    expect(rspamd.state, rspamd.detail).toBe('running');
    // `rspamd -f` writes no pid file of its own: the child is rspamd's main process, its pid recorded.
    expect(cmdline(rspamd.pid as number)).toMatch(/^rspamd: main process/);
    const recorded = t.deps.host.path('/run/rspamd/mailroom-rspamd.pid');
    expect(rspamd.pid).toBe(Number(readFileSync(recorded, 'utf8').trim()));
    expect(descendants(rspamd.pid as number).map(cmdline)).toContainEqual(
      expect.stringMatching(/^rspamd: rspamd_proxy process \(127\.0\.0\.1:/),
    );
    expect(await refused(ports.milter)).toBe(false);
  });

  it("the Mail dashboard shows each daemon's state from Mailroom's own instance", async () => {
    const res = await call('GET', 'mail/dashboard');
    expect(res.status).toBe(200);
    const daemons = res.body.daemons as DaemonState[];
    expect(daemons.map((d) => d.name)).toEqual(['postfix', 'dovecot', 'rspamd']);
    const states = await services.states();
    for (const name of ['postfix', 'dovecot', 'rspamd']) {
      const d = byName(daemons, name);
      expect(d.state, `${name}: ${d.detail}`).toBe('running');
      expect(d.pid).toBe(byName(states, name).pid);
    }
    const services_ = res.body.services as { name: string; running: boolean }[];
    expect(services_).toContainEqual({ name: 'dovecot', running: true });
    expect(res.body.serverStatus).toBe('online');
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

  it('reloads Postfix with `postfix reload`: same master, still answering', async () => {
    const before = byName(await services.states(), 'postfix').pid;
    const r = await services.reload('postfix');
    expect(r, r.output).toMatchObject({ ok: true, attempted: true });
    expect(r.output).toContain(`-c ${postfixDir()} reload`);
    await sleep(500);
    expect(byName(await services.states(), 'postfix').pid).toBe(before);
    expect(await greeting(ports.smtp)).toMatch(/^220 /);
  });

  it('a saved setting reaches the running daemons: the new hostname is in the SMTP banner', async () => {
    const before = byName(await services.states(), 'postfix').pid;
    const current = await call('GET', 'mail/settings');
    const settings = current.body.settings as Record<string, unknown>;
    const hostname = 'mx-supervised.example.org';
    expect(await greeting(ports.smtp)).not.toContain(hostname);
    const saved = await call('POST', 'mail/settings', {
      version: current.body.version,
      settings: { ...settings, hostname },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(readFileSync(path.join(postfixDir(), 'main.cf'), 'utf8')).toContain(`myhostname = ${hostname}`);
    // Each SMTP session is a fresh smtpd from the reloaded master.
    await eventually(
      'the new banner',
      () => greeting(ports.smtp),
      (g) => g.startsWith(`220 ${hostname} `),
    );
    const after = await services.states();
    expect(byName(after, 'postfix').pid).toBe(before);
    for (const name of ['postfix', 'dovecot', 'rspamd'])
      expect(byName(after, name).state, byName(after, name).detail).toBe('running');
    expect(await greeting(ports.imap)).toMatch(/^\* OK/);
    expect(await refused(ports.milter)).toBe(false);
  });

  it('starts named on MAILROOM_DNS_PORT once its files are rendered, and a reload serves the change', async () => {
    expect(byName(await services.states(), 'named').detail).toContain('not been rendered');
    const zone = await call('POST', 'dns/zones/add', ownNsZoneForm(ZONE));
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const options = readFileSync(t.deps.host.path('/etc/bind/mailroom/options.conf'), 'utf8');
    expect(options).toContain(`listen-on port ${ports.dns} { 127.0.0.1; };`);

    // The zone's save may already have started it (its reload); either way it runs now.
    const started = await services.reload('named');
    expect(started, started.output).toMatchObject({ ok: true, attempted: true });
    const named = byName(await services.states(), 'named');
    expect(named.state, named.detail).toBe('running');
    expect(cmdline(named.pid as number)).toContain(t.deps.host.path('/etc/bind/mailroom/named.conf'));
    // named accepts on its port before it has loaded every zone (SERVFAIL until then).
    await eventually(
      'the zone served',
      () => resolver.resolveSoa(ZONE),
      (soa) => soa.nsname === `ns1.${ZONE}`,
    );

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

  it("close() stops every daemon: no process is left (Postfix's master included), the ports are closed", async () => {
    const states = await services.states();
    for (const s of states) expect(s.state, `${s.name}: ${s.detail}`).toBe('running');
    const pids = states.flatMap((s) => (s.pid ? [s.pid] : []));
    expect(pids).toHaveLength(4);
    const tree = descendants(process.pid);
    expect(usingFolder(t.dataDir).length).toBeGreaterThan(4);
    await services.close();
    expect(describeProcs(pids.filter(running))).toEqual([]);
    expect(describeProcs(tree.filter(running).filter((p) => cmdline(p) !== ''))).toEqual([]);
    expect(describeProcs(usingFolder(t.dataDir))).toEqual([]);
    // No master of this test's Postfix configuration anywhere.
    expect(
      describeProcs(
        allPids().filter((p) => running(p) && environ(p).includes(`MAIL_CONFIG=${postfixDir()}`)),
      ),
    ).toEqual([]);
    for (const port of Object.values(ports).filter((p) => p !== ports.imaps))
      expect(await refused(port), `port ${port}`).toBe(true);
    for (const s of await services.states()) expect(s.state).not.toBe('running');
  }, 60_000);
});

// ---- as a process: SIGTERM to Mailroom stops the daemons ------------------------------------

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

describe.skipIf(missing.length > 0)('the Mailroom process runs the daemons', () => {
  let dataDir: string;
  const servers: ChildProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.pid && s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
    for (const p of usingFolder(dataDir)) process.kill(p, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts them after the first render, ends those a killed Mailroom left, and stops them all on SIGTERM', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sup-proc-'));
    letDaemonsPass(dataDir);
    const http = await freeTcpUdpPort();
    const ports = await freePorts();
    const root = path.join(dataDir, 'root');
    const pidIn = (file: string) => Number(readFileSync(path.join(root, file), 'utf8').trim());
    const daemonPids = () => ({
      postfix: pidIn('var/spool/postfix/pid/master.pid'),
      dovecot: pidIn('run/dovecot/master.pid'),
      rspamd: pidIn('run/rspamd/mailroom-rspamd.pid'),
    });

    const startMailroom = async () => {
      const server = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
        env: {
          PATH: process.env.PATH,
          PORT: String(http),
          MAILROOM_DATA_DIR: dataDir,
          MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
          ...portEnv(ports),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      servers.push(server);
      const run = { server, out: '', exited: new Promise<number | null>((r) => server.once('exit', r)) };
      server.stdout?.on('data', (d: Buffer) => (run.out += d.toString()));
      server.stderr?.on('data', (d: Buffer) => (run.out += d.toString()));
      const waitFor = (what: string, fn: () => Promise<boolean>) =>
        eventually(what, fn, (v) => v, 120_000).catch((err: unknown) => {
          throw new Error(`${(err as Error).message}\n${run.out}`);
        });
      await waitFor('Dovecot run by Mailroom to answer', async () =>
        (await greeting(ports.imap)).startsWith('* OK'),
      );
      await waitFor('Postfix run by Mailroom to answer', async () =>
        (await greeting(ports.smtp)).startsWith('220 '),
      );
      await waitFor(
        'rspamd run by Mailroom to accept milter connections',
        async () => !(await refused(ports.milter)),
      );
      await waitFor('every daemon reported running', async () =>
        ['dovecot', 'postfix', 'rspamd'].every((d) => run.out.includes(`${d}: running`)),
      );
      return run;
    };

    // A Mailroom killed outright cannot stop its daemons: they keep running on its files.
    const first = await startMailroom();
    const left = daemonPids();
    first.server.kill('SIGKILL');
    await first.exited;
    expect(Object.values(left).filter(running), first.out).toHaveLength(3);

    // The next start ends them (found through their pid files) and runs its own.
    const second = await startMailroom();
    expect(describeProcs(Object.values(left).filter(running)), second.out).toEqual([]);
    const mine = daemonPids();
    for (const [name, pid] of Object.entries(mine)) {
      expect(running(pid), name).toBe(true);
      expect(pid, name).not.toBe(left[name as keyof typeof left]);
    }
    expect(second.out).toContain('ending the instance left running from these files');
    const tree = descendants(second.server.pid as number);
    expect(
      tree.find((p) => cmdline(p).includes('dovecot.conf')),
      second.out,
    ).toBeDefined();

    second.server.kill('SIGTERM');
    expect(await second.exited, second.out).toBe(0);
    expect(describeProcs([...tree, ...Object.values(mine)].filter(running))).toEqual([]);
    expect(describeProcs(usingFolder(dataDir))).toEqual([]);
    for (const port of [ports.imap, ports.smtp, ports.submission, ports.milter])
      expect(await refused(port), `port ${port}`).toBe(true);
  }, 300_000);
});

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownNsZoneForm } from '../dns-zone-form.ts';
import { eventually } from '../eventually.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { sendMail, waitForMessage } from '../mail-clients.ts';
import { missingMailPackages, which } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Issue 22 (B): `npm start` as root in local mode, its supervisor killed outright (kill -9). The
 * daemons it ran (Postfix's master, Dovecot, named) keep running on the data folder's files; the
 * next start of a Mailroom on the SAME data folder must end them (found through the pid files they
 * write under it, checked against /proc) and run its own: exactly one of each afterwards, the
 * orphans gone, and mail flowing (SMTP in, IMAP out).
 */
const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const ADMIN = { email: 'admin@orphans.test', password: 'orphans-admin-secret-1' };
const MAIL_DOMAIN = 'orphans-mail.test';
const ZONE = 'orphans-dns.test';
const AMY = { email: `amy@${MAIL_DOMAIN}`, password: 'amy-mailbox-secret-1' };

const missing = [
  ...missingMailPackages('sqlite'),
  !which('named') ? 'bind9' : '',
  !which('dig') ? 'bind9-dnsutils' : '',
].filter(Boolean);
const reason = missing.length
  ? `Debian package(s) missing: ${missing.join(', ')}`
  : process.getuid?.() !== 0
    ? 'not running as root (Mailroom only runs the daemons as root)'
    : null;
if (reason) skipLoudly(`${reason}: the orphaned daemons test is SKIPPED`);

const read = (p: string) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};
const link = (p: string) => {
  try {
    return readlinkSync(p);
  } catch {
    return '';
  }
};
const cmdline = (pid: number) => read(`/proc/${pid}/cmdline`).replace(/\0/g, ' ').trim();
const comm = (pid: number) => read(`/proc/${pid}/comm`).trim();
const environ = (pid: number) => read(`/proc/${pid}/environ`);
/** Alive and not a zombie. */
const running = (pid: number) => {
  const stat = read(`/proc/${pid}/stat`);
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
};
const allPids = () =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((p) => p !== process.pid);

/** The masters of each daemon that run on the files under `dataDir` (never another instance's). */
function mastersOf(dataDir: string) {
  const pids = allPids().filter(running);
  return {
    // Postfix's master carries MAIL_CONFIG=<its config folder> and works in its queue folder.
    postfix: pids.filter(
      (p) =>
        comm(p) === 'master' &&
        (environ(p).includes(`MAIL_CONFIG=${dataDir}`) || link(`/proc/${p}/cwd`).startsWith(dataDir)),
    ),
    dovecot: pids.filter((p) => comm(p) === 'dovecot' && cmdline(p).includes(dataDir)),
    named: pids.filter((p) => comm(p) === 'named' && cmdline(p).includes(dataDir)),
  };
}
const ppid = (pid: number) => {
  const stat = read(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};
/** Apache's parents on this data folder's files (its children share the command line). */
function apacheParents(dataDir: string): number[] {
  const all = allPids().filter((p) => running(p) && comm(p) === 'apache2' && cmdline(p).includes(dataDir));
  return all.filter((p) => !all.includes(ppid(p)));
}
const usingFolder = (dir: string) =>
  allPids().filter(
    (p) =>
      running(p) &&
      (cmdline(p).includes(dir) || environ(p).includes(dir) || link(`/proc/${p}/cwd`).startsWith(dir)),
  );

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

describe.skipIf(reason !== null)('daemons left by a supervisor killed with SIGKILL', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-orphans-'));
  // The daemons' users (vmail, postfix, bind) must pass the mkdtemp folder (0700).
  chmodSync(dataDir, 0o755);
  const servers: ChildProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.pid && s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
    for (const p of usingFolder(dataDir)) process.kill(p, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the next start ends them and runs exactly one of each; mail flows', async () => {
    const port = await freeTcpUdpPort();
    const names = ['smtp', 'submission', 'imap', 'imaps', 'dns', 'milter', 'http', 'https'] as const;
    const ports = {} as Record<(typeof names)[number], number>;
    const taken = new Set<number>([port]);
    for (const k of names) {
      let p = await freeTcpUdpPort();
      while (taken.has(p)) p = await freeTcpUdpPort();
      taken.add(p);
      ports[k] = p;
    }
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
      MAILROOM_WORKERS: '2',
      MAILROOM_ADMIN_EMAIL: ADMIN.email,
      MAILROOM_ADMIN_PASSWORD: ADMIN.password,
      MAILROOM_SMTP_PORT: String(ports.smtp),
      MAILROOM_SUBMISSION_PORT: String(ports.submission),
      MAILROOM_IMAP_PORT: String(ports.imap),
      MAILROOM_IMAPS_PORT: String(ports.imaps),
      MAILROOM_DNS_PORT: String(ports.dns),
      MAILROOM_MILTER_PORT: String(ports.milter),
      MAILROOM_HTTP_PORT: String(ports.http),
      MAILROOM_HTTPS_PORT: String(ports.https),
      MAILROOM_ACME_HTTP_PORT: '0',
    };
    const base = `http://127.0.0.1:${port}`;
    const dig = (name: string) =>
      spawnSync(
        which('dig')!,
        ['@127.0.0.1', '-p', String(ports.dns), '+short', '+time=2', '+tries=1', name, 'A'],
        { encoding: 'utf8' },
      ).stdout.trim();

    const startMailroom = async () => {
      const server = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      servers.push(server);
      const run = { server, out: '', exited: new Promise<number | null>((r) => server.once('exit', r)) };
      server.stdout?.on('data', (d: Buffer) => (run.out += d.toString()));
      server.stderr?.on('data', (d: Buffer) => (run.out += d.toString()));
      await eventually(
        'two HTTP workers',
        async () => (run.out.match(/Server listening/g) ?? []).length,
        (n) => n >= 2,
        120_000,
      ).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}\n${run.out}`);
      });
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      expect(login.status).toBe(200);
      const key = ((await login.json()) as { api_key: string }).api_key;
      const api = async (method: string, url: string, body?: object) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      return { ...run, api };
    };
    const waitServing = (out: () => string) =>
      Promise.all([
        eventually(
          'SMTP',
          () => greeting(ports.smtp),
          (g) => g.startsWith('220 '),
          120_000,
        ),
        eventually(
          'IMAP',
          () => greeting(ports.imap),
          (g) => g.startsWith('* OK'),
          120_000,
        ),
        eventually(
          'the zone',
          async () => dig(`www.${ZONE}`),
          (a) => a === '192.0.2.10',
          120_000,
        ),
      ]).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}\n${out()}`);
      });

    // ---- the first Mailroom: mail and DNS set up, the daemons running on the data folder.
    const first = await startMailroom();
    const current = await first.api('GET', '/api/mail/settings');
    const saved = await first.api('POST', '/api/mail/settings', {
      // rspamd takes half a minute to start on a busy machine; the filter is not what is tested.
      settings: { ...(current.body.settings as object), enableSpamFilter: false, enableDKIM: false },
      version: current.body.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const mb = await first.api('POST', '/api/mail/users/add', { createDomain: true, ...AMY, quota: 0 });
    expect(mb.status, JSON.stringify(mb.body)).toBe(200);
    expect((await first.api('POST', '/api/dns/zones/add', ownNsZoneForm(ZONE))).status).toBe(200);
    const www = await first.api('POST', `/api/dns/zones/${ZONE}/records`, {
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.10',
      ttl: 300,
    });
    expect(www.status, JSON.stringify(www.body)).toBe(200);
    await waitServing(() => first.out);
    const left = mastersOf(dataDir);
    for (const [name, pids] of Object.entries(left)) expect(pids, `${name}\n${first.out}`).toHaveLength(1);
    // Apache runs too when Mailroom runs it (its files rendered at start).
    const apacheLeft = apacheParents(dataDir);

    // ---- killed outright: it cannot stop its daemons, which keep running on its files.
    first.server.kill('SIGKILL');
    await first.exited;
    const orphans = [...Object.values(left).flat(), ...apacheLeft];
    expect(orphans.filter(running)).toEqual(orphans);

    // ---- the next start on the same data folder.
    const second = await startMailroom();
    await waitServing(() => second.out);
    const now = await eventually(
      'one master of each',
      async () => mastersOf(dataDir),
      (m) => Object.values(m).every((p) => p.length === 1),
      60_000,
    ).catch((err: unknown) => {
      const m = mastersOf(dataDir);
      throw new Error(
        `${(err as Error).message}\n${Object.entries(m)
          .map(([n, ps]) => `${n}: ${ps.map((p) => `${p} ${cmdline(p)}`).join(', ')}`)
          .join('\n')}\n${second.out}`,
      );
    });
    expect(orphans.filter(running), second.out).toEqual([]);
    if (apacheLeft.length) {
      const apacheNow = await eventually(
        'one Apache',
        async () => apacheParents(dataDir),
        (p) => p.length === 1,
        60_000,
      );
      expect(apacheNow[0]).not.toBe(apacheLeft[0]);
    }
    for (const name of Object.keys(now) as (keyof typeof now)[])
      expect(now[name][0], name).not.toBe(left[name][0]);
    expect(second.out).toContain('ending the instance left running from these files');

    // Mail flows through the new instances: SMTP in, IMAP out.
    const sent = await sendMail(ports.smtp, {
      from: 'someone@example.net',
      to: [AMY.email],
      subject: 'After the orphans',
    });
    expect(sent.data?.code, JSON.stringify(sent)).toBe(250);
    await waitForMessage(ports.imap, AMY.email, AMY.password, 'After the orphans', 60_000);

    // A clean stop leaves nothing running on the folder.
    second.server.kill('SIGTERM');
    expect(await second.exited, second.out.slice(-3000)).toBe(0);
    expect(usingFolder(dataDir).map((p) => `${p}: ${cmdline(p)}`)).toEqual([]);
  }, 420_000);
});

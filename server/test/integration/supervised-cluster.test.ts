import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { missingMailPackages, which } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Issue 22 #21: `npm start` as root in local mode (the daemons supervised) uses both cores. The
 * primary process supervises the daemons and does not serve HTTP; two workers beside it serve
 * the port. A daemon restart asked through a worker is carried out once, by the supervisor, and
 * answered truthfully; the daemon states the workers answer come from the supervisor.
 */
const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const ADMIN = { email: 'admin@cluster.test', password: 'cluster-admin-secret-1' };

const missing = [...missingMailPackages('sqlite'), !which('named') ? 'bind9' : ''].filter(Boolean);
const reason = missing.length
  ? `Debian package(s) missing: ${missing.join(', ')}`
  : process.getuid?.() !== 0
    ? 'not running as root (Mailroom only runs the daemons as root)'
    : null;
if (reason) skipLoudly(`${reason}: the supervised cluster test is SKIPPED`);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const children = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([p, comm]) => Number(p) > 0 && comm === 'node')
    .map(([p]) => Number(p));

/** GET over a keep-alive agent: the connection stays open (and so visible to `ss`). */
function get(agent: http.Agent, port: number, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

interface SaveProgress {
  saveId: string;
  seq: number;
  steps: { name: string; state: string; ms: number | null }[];
  done: boolean;
}

/** An `/api/events` stream on its own connection, collecting the `mail-save` events. */
async function openStream(base: string, key: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events`, {
    headers: { authorization: `Bearer ${key}` },
    signal: ac.signal,
  });
  const saves: SaveProgress[] = [];
  let ready = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = buf.indexOf('\n\n')) !== -1) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'ready') ready = true;
          if (event === 'mail-save' && data) saves.push(JSON.parse(data) as SaveProgress);
        }
      }
    } catch {
      /* closed */
    }
  })();
  return {
    saves,
    ready: () => ready,
    close: async () => {
      ac.abort();
      await reading;
    },
  };
}

interface Daemon {
  name: string;
  state: string;
  pid: number | null;
}

describe.skipIf(reason !== null)('supervised local mode as a cluster', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-supcluster-'));
  let proc: ChildProcess | null = null;
  afterAll(() => {
    if (proc?.pid && proc.exitCode === null) process.kill(proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('one supervisor and two HTTP workers; a restart through a worker happens once, truthfully; a save’s steps reach both workers’ streams', async () => {
    const port = await freePort();
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
      MAILROOM_SMTP_PORT: String(await freePort()),
      MAILROOM_SUBMISSION_PORT: String(await freePort()),
      MAILROOM_IMAP_PORT: String(await freePort()),
      MAILROOM_IMAPS_PORT: String(await freePort()),
      MAILROOM_DNS_PORT: String(await freeTcpUdpPort()),
      MAILROOM_MILTER_PORT: String(await freePort()),
      MAILROOM_HTTP_PORT: String(await freePort()),
      MAILROOM_HTTPS_PORT: String(await freePort()),
      MAILROOM_ACME_HTTP_PORT: '0',
    };
    proc = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc!.on('exit', (code) => resolve(code)));

    const deadline = Date.now() + 90_000;
    while ((out.match(/Server listening/g) ?? []).length < 2) {
      if (proc.exitCode !== null) throw new Error(`exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`workers did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('supervisor started; HTTP workers serve the port');
    // Two HTTP workers, children of the supervisor; the supervisor itself listens on no HTTP port.
    const workers = children(proc.pid!);
    expect(workers).toHaveLength(2);
    // Requests over many connections at once: the workers hold them, never the supervisor.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const codes = await Promise.all(Array.from({ length: 16 }, () => get(agent, port, '/auth/status')));
    expect(codes.every((c) => c === 200)).toBe(true);
    const ss = execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`], {
      encoding: 'utf8',
    });
    const holders = new Set([...ss.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
    expect([...holders].sort(), ss).toEqual([...workers].sort());
    agent.destroy();

    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const key = ((await login.json()) as { api_key: string }).api_key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const daemons = async () =>
      ((await (await fetch(`${base}/api/mail/dashboard`, { headers })).json()) as { daemons: Daemon[] })
        .daemons;

    // The workers answer the supervisor's states: Dovecot runs, from the supervisor's child.
    let dovecot: Daemon | undefined;
    while (Date.now() < deadline) {
      dovecot = (await daemons()).find((d) => d.name === 'dovecot');
      if (dovecot?.state === 'running' && dovecot.pid) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(dovecot?.state, out).toBe('running');
    const before = dovecot!.pid!;
    expect(workers).not.toContain(before);

    const res = await fetch(`${base}/api/system/services/dovecot/action`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'restart' }),
    });
    const answer = (await res.json()) as { ok: boolean; message: string; service: { status: string } };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.ok).toBe(true);
    expect(answer.message).toContain('dovecot started');
    expect(answer.service.status).toBe('running');
    // Carried out once, by the supervisor: one action logged, the old process gone, a new one up.
    expect((out.match(/daemon action from a worker/g) ?? []).length).toBe(1);
    expect(alive(before)).toBe(false);
    const after = (await daemons()).find((d) => d.name === 'dovecot')!;
    expect(after.state).toBe('running');
    expect(after.pid).not.toBe(before);
    expect(alive(after.pid!)).toBe(true);

    // Issue 22 #17: a save's steps reach every worker's event streams as they change (the page's
    // stream may be held by the other worker than its save). Streams on several connections, until
    // both workers hold some.
    const streams: Awaited<ReturnType<typeof openStream>>[] = [];
    const streamHolders = () =>
      new Set(
        [
          ...execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`], {
            encoding: 'utf8',
          }).matchAll(/pid=(\d+)/g),
        ].map((m) => Number(m[1])),
      );
    while (streams.length < 8 && (streams.length < 2 || streamHolders().size < 2))
      streams.push(await openStream(base, key));
    expect(streamHolders().size, 'both workers hold event streams').toBe(2);
    while (!streams.every((st) => st.ready())) await new Promise((r) => setTimeout(r, 50));
    const current = (await (await fetch(`${base}/api/mail/settings`, { headers })).json()) as {
      version: number;
      settings: { maxRecipients: number };
    };
    const saveId = 'cluster-save-steps-1';
    const saved = await fetch(`${base}/api/mail/settings`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        version: current.version,
        settings: { ...current.settings, maxRecipients: current.settings.maxRecipients + 1 },
        saveId,
      }),
    });
    const savedBody = (await saved.json()) as { steps: SaveProgress['steps'] };
    expect(saved.status, JSON.stringify(savedBody)).toBe(200);
    const streamDeadline = Date.now() + 10_000;
    while (
      Date.now() < streamDeadline &&
      !streams.every((st) => st.saves.some((p) => p.saveId === saveId && p.done))
    )
      await new Promise((r) => setTimeout(r, 50));
    for (const [i, st] of streams.entries()) {
      const mine = st.saves.filter((p) => p.saveId === saveId);
      // Every stream, whichever worker holds it: the steps in order, Postfix reloaded for real.
      expect(
        mine.map((p) => p.seq),
        `stream ${i}`,
      ).toEqual(mine.map((_p, n) => n + 1));
      expect(
        mine.some((p) => p.steps.some((x) => x.name === 'Reload postfix' && x.state === 'running')),
        `stream ${i}`,
      ).toBe(true);
      expect(mine.at(-1)?.done, `stream ${i}`).toBe(true);
      expect(mine.at(-1)?.steps, `stream ${i}`).toEqual(savedBody.steps);
    }
    expect(savedBody.steps.find((x) => x.name === 'Reload postfix')?.state).toBe('passed');
    for (const st of streams) await st.close();

    // SIGTERM stops the workers, then the supervisor stops its daemons.
    process.kill(proc.pid!, 'SIGTERM');
    expect(await exited, out.slice(-3000)).toBe(0);
    for (const pid of [...workers, after.pid!]) expect(alive(pid)).toBe(false);
  }, 180_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probe } from './readiness.ts';
import { type DaemonSpec, isAlive, Supervisor } from './supervisor.ts';

const FAKE = path.resolve(import.meta.dirname, '../../test/fixtures/fake-daemon.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Supervisor (with a fake daemon)', () => {
  let dir: string;
  let port: number;
  let sup: Supervisor | null = null;
  const events = () =>
    existsSync(path.join(dir, 'events.log')) ? readFileSync(path.join(dir, 'events.log'), 'utf8') : '';
  const count = (word: string) =>
    events()
      .split('\n')
      .filter((l) => l.endsWith(` ${word}`)).length;

  const spec = (flags: string[] = [], over: Partial<DaemonSpec> = {}): DaemonSpec => ({
    name: 'dovecot',
    program: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), FAKE, String(port), dir, ...flags],
    configPath: path.join(dir, 'fake.conf'),
    // The pid file too: it is written once the fake listens, so another process that happens to
    // take the port cannot make it look ready.
    ready: [{ tcp: { host: '127.0.0.1', port } }, { file: path.join(dir, 'daemon.pid') }],
    pidFile: path.join(dir, 'daemon.pid'),
    reload: { signal: 'SIGHUP' },
    ...over,
  });

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sup-'));
    writeFileSync(path.join(dir, 'fake.conf'), 'x\n');
    port = await freePort();
  });
  afterEach(async () => {
    await sup?.close();
    sup = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts a daemon, waits until it answers, reloads it and stops it', async () => {
    sup = new Supervisor([spec(['--delay-ms', '300'])]);
    await sup.startAll();
    expect(await probe({ tcp: { host: '127.0.0.1', port } })).toBe(true);
    const st = await sup.state('dovecot');
    expect(st?.state).toBe('running');
    const pid = Number(readFileSync(path.join(dir, 'daemon.pid'), 'utf8'));
    expect(st?.pid).toBe(pid);
    expect(st?.since).toMatch(/^\d{4}-/);

    const r = await sup.reload('dovecot');
    expect(r).toMatchObject({ ok: true, attempted: true });
    await until('the reload to arrive', () => count('reload') === 1);

    await sup.close();
    expect(isAlive(pid)).toBe(false);
    expect(count('term')).toBe(1);
    expect((await sup.state('dovecot'))?.state).toBe('stopped');
  });

  it('runs a reload command and reports its failure', async () => {
    sup = new Supervisor([
      spec([], { reload: { command: '/bin/sh', args: ['-c', 'echo nope >&2; exit 1'] } }),
    ]);
    await sup.startAll();
    const r = await sup.reload('dovecot');
    expect(r.ok).toBe(false);
    expect(r.attempted).toBe(true);
    expect(r.output).toContain('nope');
  });

  it('restarts a crashed daemon after a backoff and counts the restart', async () => {
    sup = new Supervisor([spec()], { backoffMs: 200 });
    await sup.startAll();
    const first = (await sup.pid('dovecot')) as number;
    process.kill(first, 'SIGKILL');
    await until('a new process', async () => {
      const p = await sup?.pid('dovecot');
      return !!p && p !== first && (await sup?.state('dovecot'))?.state === 'running';
    });
    expect(count('start'), events()).toBe(2);
    expect((await sup.state('dovecot'))?.detail).toContain('restarted 1 time');
  });

  it('reports failed after repeated crashes, with the exit and the output', async () => {
    sup = new Supervisor([spec(['--crash-at-start'])], { backoffMs: 50, maxCrashes: 3 });
    await sup.startAll();
    await until(
      'failed',
      async () => (await sup?.state('dovecot'))?.state === 'failed' && count('start') === 3,
    );
    await sleep(400);
    expect(count('start')).toBe(3);
    const st = await sup.state('dovecot');
    expect(st?.detail).toContain('code 3');
    expect(st?.detail).toContain('configured to crash');
    expect(st?.detail).toContain('gave up after 3');
  });

  it('waits longer after each crash (exponential backoff)', async () => {
    sup = new Supervisor([spec(['--crash-at-start'])], { backoffMs: 150, maxCrashes: 4 });
    const t0 = Date.now();
    await sup.startAll();
    await until('three restarts', () => count('start') === 4, 10_000);
    // Delays 150 + 300 + 600 ms before the 2nd, 3rd and 4th start.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
  });

  it('kills a daemon that ignores SIGTERM after the stop timeout', async () => {
    sup = new Supervisor([spec(['--ignore-term'])], { stopTimeoutMs: 3000 });
    await sup.startAll();
    const pid = (await sup.pid('dovecot')) as number;
    await sup.close();
    expect(count('term'), events()).toBe(1);
    expect(isAlive(pid)).toBe(false);
  });

  it('does not start a daemon whose configuration is not rendered, and says so', async () => {
    sup = new Supervisor([spec([], { configPath: path.join(dir, 'missing.conf') })]);
    await sup.startAll();
    const st = await sup.state('dovecot');
    expect(st?.state).toBe('stopped');
    expect(st?.detail).toContain('has not been rendered yet');
    expect(count('start')).toBe(0);
  });

  it('gives up on a daemon that never answers, then a reload after new files starts it again', async () => {
    const other = await freePort();
    sup = new Supervisor([spec([], { ready: [{ tcp: { host: '127.0.0.1', port: other } }] })], {
      readyTimeoutMs: 2000,
      backoffMs: 50,
      maxCrashes: 2,
    });
    await sup.startAll();
    await until('failed', async () => /gave up/.test((await sup?.state('dovecot'))?.detail ?? ''));
    expect((await sup.state('dovecot'))?.detail).toContain('did not answer');
    expect(count('term')).toBe(2);

    // The fix arrives (here: something answers on the probed port); a reload starts it afresh.
    const listener = net.createServer((s) => s.end());
    await new Promise<void>((r) => listener.listen(other, '127.0.0.1', () => r()));
    try {
      const r = await sup.reload('dovecot');
      expect(r).toMatchObject({ ok: true, attempted: true });
      expect((await sup.state('dovecot'))?.state).toBe('running');
      await until('the third start', () => count('start') === 3);
    } finally {
      listener.close();
    }
  });

  // ---- issue 22 (B): what a Mailroom killed with SIGKILL left, and what it must never touch.

  /** A process the test started outside the supervisor, ended after the test. */
  const strangers: ChildProcess[] = [];
  afterEach(() => {
    for (const c of strangers.splice(0)) if (c.pid && isAlive(c.pid)) c.kill('SIGKILL');
  });
  const runFake = (folder: string, p: number) => {
    const c = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), FAKE, String(p), folder], {
      stdio: 'ignore',
    });
    strangers.push(c);
    return c;
  };

  it('ends an instance left running on these files (found by its pid file), then runs its own', async () => {
    const left = runFake(dir, port);
    await until('the left instance', () => existsSync(path.join(dir, 'daemon.pid')), 30_000);
    expect(Number(readFileSync(path.join(dir, 'daemon.pid'), 'utf8'))).toBe(left.pid);
    sup = new Supervisor([spec()], { readyTimeoutMs: 30_000 });
    await sup.startAll();
    expect(isAlive(left.pid!) && left.exitCode === null && left.signalCode === null).toBe(false);
    const st = await sup.state('dovecot');
    expect(st?.state, st?.detail).toBe('running');
    expect(st?.pid).not.toBe(left.pid);
  }, 60_000);

  it('never ends a pid of its pid file that is another program now (a pid reused after a reboot)', async () => {
    const stranger = spawn('sleep', ['300'], { stdio: 'ignore' });
    strangers.push(stranger);
    writeFileSync(path.join(dir, 'daemon.pid'), `${stranger.pid}\n`);
    sup = new Supervisor([spec()], { readyTimeoutMs: 30_000 });
    await sup.startAll();
    expect((await sup.state('dovecot'))?.state).toBe('running');
    expect(stranger.exitCode === null && stranger.signalCode === null, 'sleep was killed').toBe(true);
  }, 60_000);

  it("never ends another instance's daemon (same program, other files) whose pid it finds", async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sup-other-'));
    try {
      const other = runFake(elsewhere, await freePort());
      await until('the other instance', () => existsSync(path.join(elsewhere, 'daemon.pid')), 30_000);
      writeFileSync(path.join(dir, 'daemon.pid'), `${other.pid}\n`);
      sup = new Supervisor([spec()], { readyTimeoutMs: 30_000 });
      await sup.startAll();
      expect((await sup.state('dovecot'))?.state).toBe('running');
      expect(other.exitCode === null && other.signalCode === null, 'the other instance was killed').toBe(
        true,
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);

  // ---- issue 22 #12: an intended stop (a restore) is pending, within a time bound.

  it('a hold marks a stop as intended until it runs again, released, or its time bound passes', async () => {
    let now = 1_000_000;
    sup = new Supervisor([spec()], { readyTimeoutMs: 30_000, now: () => now });
    await sup.startAll();
    sup.hold('dovecot', { why: 'restore', forMs: 60_000 });
    // Still running: the hold says nothing yet.
    expect(await sup.state('dovecot')).toMatchObject({ state: 'running' });
    await sup.stop('dovecot');
    expect(await sup.state('dovecot')).toMatchObject({ state: 'stopped', pending: 'restore' });
    expect((await sup.state('dovecot'))?.detail).toContain('Stopped for a restore');
    // Renewed: counted afresh from now.
    now += 50_000;
    sup.hold('dovecot', { why: 'restore', forMs: 60_000 });
    now += 50_000;
    expect((await sup.state('dovecot'))?.pending).toBe('restore');
    // Its action died (no renewal): the time bound ends it, and the stop is a stop again.
    now += 11_000;
    const after = await sup.state('dovecot');
    expect(after?.state).toBe('stopped');
    expect(after?.pending).toBeUndefined();
    // Running again ends a hold by itself.
    sup.hold('dovecot', { why: 'restore', forMs: 60_000 });
    await sup.start('dovecot');
    expect(await sup.state('dovecot')).toMatchObject({ state: 'running' });
    await sup.stop('dovecot');
    expect((await sup.state('dovecot'))?.pending).toBeUndefined();
  }, 60_000);
});

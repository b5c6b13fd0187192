import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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

describe('cluster mode', () => {
  let dataDir: string;
  let proc: ChildProcess | null = null;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-cluster-'));
  });
  afterAll(() => {
    if (proc?.pid && proc.exitCode === null) process.kill(proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('MAILROOM_WORKERS=2 runs two workers that serve one port; SIGTERM stops all of them', async () => {
    const port = await freePort();
    proc = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
        MAILROOM_WORKERS: '2',
        MAILROOM_RUN_DAEMONS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc!.on('exit', (code) => resolve(code)));

    // Both workers listening (each logs its own "Server listening").
    const deadline = Date.now() + 60_000;
    while ((out.match(/Server listening/g) ?? []).length < 2) {
      if (proc.exitCode !== null) throw new Error(`exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`workers did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('cluster started');
    // The workers are the primary's node children (a checker the startup render runs may be
    // another child for a moment).
    const workers = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(proc.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([pid, comm]) => Number(pid) > 0 && comm === 'node')
      .map(([pid]) => Number(pid));
    expect(workers).toHaveLength(2);

    // Many connections at once: the primary hands them out in turn, so both workers hold some.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const codes = await Promise.all(Array.from({ length: 16 }, () => get(agent, port, '/auth/status')));
    expect(codes.every((c) => c === 200)).toBe(true);
    const ss = execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`], {
      encoding: 'utf8',
    });
    const holders = new Set([...ss.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
    expect([...holders].sort(), ss).toEqual([...workers].sort());
    agent.destroy();

    process.kill(proc.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect((out.match(/shutting down/g) ?? []).length).toBe(2);
  });
});

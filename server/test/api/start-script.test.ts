import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/host/supervisor.ts';
import { freePort } from '../postgres-cluster.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's pid: the node process running server/src/main.ts whose parent is start.mjs. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(e));
    } catch {
      /* gone */
    }
  }
  return out;
}
function readdirProc(): string[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e));
}
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/**
 * `npm start` in a copy of the repository's entry points (package.json, scripts/) that reuses its
 * node_modules and server, with a web build stamp, so neither `npm install` nor a web build runs.
 */
function stageRepo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-npmstart-'));
  cpSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  cpSync(path.join(REPO, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  utimesSync(path.join(dir, 'package-lock.json'), new Date(0), new Date(0));
  cpSync(path.join(REPO, 'scripts'), path.join(dir, 'scripts'), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  symlinkSync(path.join(REPO, 'server'), path.join(dir, 'server'));
  symlinkSync(path.join(REPO, 'contract'), path.join(dir, 'contract'));
  mkdirSync(path.join(dir, 'web', 'dist'), { recursive: true });
  writeFileSync(path.join(dir, 'web', 'dist', 'index.html'), '<!doctype html><title>stub</title>');
  return dir;
}

describe('npm start', () => {
  const cleanup: (() => void)[] = [];
  afterAll(() => {
    for (const c of cleanup.reverse()) c();
  });

  it('SIGTERM to the npm process stops the server too (no orphan keeps serving)', async () => {
    const root = stageRepo();
    const data = mkdtempSync(path.join(os.tmpdir(), 'mailroom-npmstart-data-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    cleanup.push(() => rmSync(data, { recursive: true, force: true }));
    const port = await freePort();
    const npm: ChildProcess = spawn('npm', ['start'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        MAILROOM_DATA_DIR: data,
        MAILROOM_WEB_DIST: path.join(root, 'web', 'dist'),
        MAILROOM_RUN_DAEMONS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    npm.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const npmPid = npm.pid as number;
    cleanup.push(() => {
      if (isAlive(npmPid)) process.kill(npmPid, 'SIGKILL');
    });

    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${base}/auth/status`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
      await sleep(200);
    }
    expect(out).not.toContain('running npm install');
    expect(out).not.toContain('building the web app');

    // npm → sh -c → node scripts/start.mjs → node server/src/main.ts
    const all: number[] = [];
    const walk = (pid: number) => {
      for (const c of childrenOf(pid)) {
        all.push(c);
        walk(c);
      }
    };
    walk(npmPid);
    const server = all.find((p) => cmdline(p).includes('main.ts'));
    expect(server, `process tree: ${all.map((p) => `${p}: ${cmdline(p)}`).join('\n')}`).toBeDefined();
    cleanup.push(() => {
      for (const p of all) if (isAlive(p)) process.kill(p, 'SIGKILL');
    });

    npm.kill('SIGTERM');
    const gone = Date.now() + 20_000;
    while (all.some(isAlive) && Date.now() < gone) await sleep(100);
    expect(all.filter(isAlive).map((p) => `${p}: ${cmdline(p)}`)).toEqual([]);
    await expect(fetch(`${base}/auth/status`)).rejects.toThrow();
    expect(out).toContain('shutting down');
  }, 90_000);
});

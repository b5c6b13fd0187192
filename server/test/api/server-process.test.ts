import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

interface Server {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Server {
  const proc = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

async function waitUntilUp(base: string, server: Server): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/auth/status`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (server.proc.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`server did not answer in 30 s:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the server process', () => {
  let dataDir: string;
  const running: Server[] = [];
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-proc-'));
  });
  afterAll(() => {
    for (const s of running) if (s.proc.exitCode === null && s.proc.pid) process.kill(s.proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = (port: number) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
    MAILROOM_RUN_DAEMONS: '0',
  });

  it('first start: migrates, creates an administrator with a one-time password, serves, stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = start(env(port));
    running.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitUntilUp(base, server);

    const password = /with password: (\S+)/.exec(server.output())?.[1];
    expect(password, server.output()).toBeDefined();
    expect(server.output()).toContain('database migrated');
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost.localdomain', password }),
    });
    expect(login.status).toBe(200);
    const { api_key } = (await login.json()) as { api_key: string };
    const status = await fetch(`${base}/api/system/status`, {
      headers: { authorization: `Bearer ${api_key}` },
    });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { status: string }).status).toMatch(/running|degraded/);

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
    await expect(fetch(`${base}/auth/status`)).rejects.toThrow();
  });

  it('second start: keeps the administrator and prints no password', async () => {
    const port = await freePort();
    const server = start(env(port));
    running.push(server);
    await waitUntilUp(`http://127.0.0.1:${port}`, server);
    expect(server.output()).not.toContain('Created administrator');
    expect(server.output()).not.toContain('database migrated');
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses bad settings at start with a message naming them (exit 2)', async () => {
    const server = start({ ...env(8080), PORT: 'http', MAILROOM_SESSION_IDLE_MINUTES: '-5' });
    running.push(server);
    expect(await server.exited).toBe(2);
    expect(server.output()).toContain('PORT: must be a whole number from 0 to 65535');
    expect(server.output()).toContain(
      'MAILROOM_SESSION_IDLE_MINUTES: must be a whole number of minutes at least 1',
    );
  });
});

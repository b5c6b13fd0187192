import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const ADMIN = { email: 'admin@example.com', password: 'cluster-admin-password' };

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function request(agent: http.Agent, port: number, method: string, p: string, token?: string, body?: object) {
  return new Promise<Answer>((resolve, reject) => {
    const data = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Two workers of one server (node:cluster), as production runs them, on one SQLite database. */
describe('API monitoring with MAILROOM_WORKERS=2', () => {
  let dataDir: string;
  let proc: ChildProcess | null = null;
  let port = 0;
  let token = '';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const call = (method: string, p: string, body?: object) => request(agent, port, method, p, token, body);
  const stats = async () =>
    JSON.parse((await call('GET', '/api/api-monitoring/stats?window=5m')).body) as { requestCount: number };
  // A worker adds its counts every 2 s: wait until the figure stops moving.
  const settledCount = async (expected: number) => {
    const deadline = Date.now() + 20_000;
    let n = (await stats()).requestCount;
    while (n < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      n = (await stats()).requestCount;
    }
    await new Promise((r) => setTimeout(r, 4500));
    return (await stats()).requestCount;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apimon-cluster-'));
    port = await freePort();
    proc = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
        MAILROOM_WORKERS: '2',
        MAILROOM_RUN_DAEMONS: '0',
        MAILROOM_ADMIN_EMAIL: ADMIN.email,
        MAILROOM_ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 60_000;
    while ((out.match(/Server listening/g) ?? []).length < 2) {
      if (proc.exitCode !== null) throw new Error(`exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`workers did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const login = await request(agent, port, 'POST', '/auth/login', undefined, ADMIN);
    token = (JSON.parse(login.body) as { api_key: string }).api_key;
  }, 90_000);
  afterAll(async () => {
    agent.destroy();
    if (proc?.pid && proc.exitCode === null) {
      const exited = new Promise((r) => proc!.on('exit', r));
      process.kill(proc.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('1,000 requests over both workers raise the total by exactly 1,000', async () => {
    const before = await settledCount(0);
    for (let i = 0; i < 1000; i += 8) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(8, 1000 - i) }, () => call('GET', '/api/jobs')),
      );
      for (const r of batch) expect(r.status).toBe(200);
    }
    expect(await settledCount(before + 1000)).toBe(before + 1000);
  }, 60_000);

  it('a limit of 100 per minute admits exactly 100 of 150 across both workers', async () => {
    const save = await call('PUT', '/api/api-monitoring/rate-limit', {
      enabled: true,
      requestsPerMinute: 100,
      requestsPerHour: 10000,
    });
    expect(save.status).toBe(200);
    // Every worker reads the settings within 2 s (the bound is 5 s).
    await new Promise((r) => setTimeout(r, 2500));
    const inMinute = Date.now() % 60_000;
    if (inMinute > 45_000) await new Promise((r) => setTimeout(r, 61_000 - inMinute));
    const codes: number[] = [];
    for (let i = 0; i < 150; i += 10)
      codes.push(
        ...(await Promise.all(Array.from({ length: 10 }, () => call('GET', '/api/jobs')))).map(
          (r) => r.status,
        ),
      );
    expect(codes.filter((c) => c === 200)).toHaveLength(100);
    expect(codes.filter((c) => c === 429)).toHaveLength(50);
    // The page is never limited: the administrator can lift the limit.
    const lift = await call('PUT', '/api/api-monitoring/rate-limit', {
      enabled: false,
      requestsPerMinute: 100,
      requestsPerHour: 10000,
    });
    expect(lift.status).toBe(200);
  }, 90_000);
});

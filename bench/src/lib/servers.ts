import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, type RunningServer, startServer } from '../../../e2e/server-process.ts';

export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

const ROOT = path.resolve(import.meta.dirname, '../../..');
let builtEntry: string | null = null;

/**
 * What production runs (deploy/mailroom.service): `node --enable-source-maps server/dist/main.js`,
 * built once per bench run. BENCH_SERVER=src measures the TypeScript source through tsx instead.
 */
function productionEntry(): string | null {
  if (process.env.BENCH_SERVER === 'src') return null;
  if (!builtEntry) {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'ignore' });
    builtEntry = path.join(ROOT, 'server/dist/main.js');
  }
  return builtEntry;
}

/**
 * The real Mailroom server, built as production runs it, on a free port with a fresh data folder,
 * at LOG_LEVEL=warn (no per-request log lines) unless `env` says otherwise.
 */
export function startMailroom(
  outDir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  const entry = productionEntry();
  return startServer({
    ...(entry ? { builtEntry: entry } : {}),
    nodeArgs: entry ? ['--enable-source-maps', ...nodeArgs] : nodeArgs,
    adminEmail: BENCH_ADMIN.email,
    adminPassword: BENCH_ADMIN.password,
    logFile: path.join(outDir, 'mailroom-server.log'),
    // The load runs far above a console's pace from one address and one key: the limiter stays
    // on (its cost is measured) with ceilings the load does not reach.
    env: { MAILROOM_RATE_LIMIT_IP: '100000000', MAILROOM_RATE_LIMIT_SESSION: '100000000', ...env },
  });
}

/** Signs in through the API and answers the session key. */
export async function signInKey(baseURL: string): Promise<string> {
  const res = await fetch(`${baseURL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

/** Runs a TypeScript server script with tsx on a free port; it prints `listening <port>` when ready. */
export async function startScriptServer(
  root: string,
  script: string,
  env: Record<string, string> = {},
): Promise<{ baseURL: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU milliseconds used so far by a process and every process below it (its cluster workers). */
export function treeCpuMs(pid: number): number {
  let ms = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
      for (const c of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/))
        if (c) stack.push(Number(c));
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

/**
 * Waits until a started server has finished its startup work (first renders, key generation,
 * module loading in each worker): three seconds in a row under 60 ms of CPU each, at most 60 s.
 * Figures are then of the steady state, not of requests racing the startup for the cores.
 */
export async function untilServerIdle(pid: number): Promise<void> {
  let quiet = 0;
  let last = treeCpuMs(pid);
  for (let i = 0; i < 60 && quiet < 3; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeCpuMs(pid);
    quiet = now - last < 60 ? quiet + 1 : 0;
    last = now;
  }
}

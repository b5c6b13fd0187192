import { execFileSync, spawn } from 'node:child_process';
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
): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
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
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.ts';

export interface ServerOptions {
  adminEmail: string;
  adminPassword: string;
  /** A PostgreSQL database URL; absent means SQLite in the data folder. */
  databaseUrl?: string;
  logFile: string;
  env?: Record<string, string>;
  /** Extra node flags (e.g. `--cpu-prof`; the cluster's workers inherit them). */
  nodeArgs?: string[];
  /** A built entry (server/dist/main.js) run by plain node, as production runs it; absent: the source through tsx. */
  builtEntry?: string;
}

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no free port')),
      );
    });
  });
}

/** The caller's environment without any Mailroom setting, so a developer's own never leaks in. */
function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v === undefined ||
      k.startsWith('MAILROOM_') ||
      ['PORT', 'HOST', 'DATABASE_URL', 'LOG_LEVEL'].includes(k)
    )
      continue;
    out[k] = v;
  }
  return out;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

const tail = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
};

/**
 * Starts the real server (`server/src/main.ts` through tsx, serving the built web app) on a free
 * loopback port with a fresh data folder, and waits until /auth/status answers.
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-e2e-'));
  const port = await freePort();
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile);
  const child = spawn(
    process.execPath,
    opts.builtEntry
      ? [...(opts.nodeArgs ?? []), opts.builtEntry]
      : [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(ROOT, 'server/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...cleanEnv(),
        PORT: String(port),
        HOST: '127.0.0.1',
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_ADMIN_EMAIL: opts.adminEmail,
        MAILROOM_ADMIN_PASSWORD: opts.adminPassword,
        LOG_LEVEL: 'warn',
        // Servers here share the machine: none of them starts the mail daemons on the fixed local ports.
        MAILROOM_RUN_DAEMONS: '0',
        ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(pid, 'SIGTERM');
      if (!(await waitForExit(child, 10_000))) {
        process.kill(pid, 'SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `the server exited during start (${child.exitCode ?? child.signalCode}):\n${tail(opts.logFile)}`,
      );
    }
    try {
      const res = await fetch(`${baseURL}/auth/status`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /auth/status within 60 s:\n${tail(opts.logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { baseURL, dataDir, pid, stop };
}

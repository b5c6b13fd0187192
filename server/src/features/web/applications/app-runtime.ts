import path from 'node:path';
import { splitCommand } from '@mailroom/contract/web/applications';
import {
  APP_BASE_ENV,
  appPidFile,
  AppProcess,
  freeLoopbackPort,
  probeHttp,
  probeTcp,
  type RunAs,
} from '../../../host/app-process.ts';
import type { AppConfig } from './application.repository.ts';

/** A running release of an application. */
export interface RunningRelease {
  releaseId: number;
  port: number;
  proc: AppProcess;
}

/** How often a starting release is asked for its health. */
export const HEALTH_POLL_MS = 500;

/**
 * The app processes this Mailroom supervises (local mode): one running release per application,
 * plus the new one while a deploy checks it. Processes stop with Mailroom.
 */
export class AppRuntime {
  private readonly running = new Map<number, RunningRelease>();

  get(appId: number): RunningRelease | undefined {
    return this.running.get(appId);
  }

  set(appId: number, r: RunningRelease): void {
    this.running.set(appId, r);
  }

  forget(appId: number, releaseId: number): void {
    if (this.running.get(appId)?.releaseId === releaseId) this.running.delete(appId);
  }

  ports(): Set<number> {
    return new Set([...this.running.values()].map((r) => r.port));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.proc.stop(5000)));
    this.running.clear();
  }
}

/**
 * The process environment of a release: the base, NODE_ENV from the environment field (Python:
 * PYTHONUNBUFFERED=1 too, so its output reaches the log line by line), LOG_LEVEL from the Log Level,
 * its variables, PORT.
 */
export function releaseEnv(c: AppConfig, env: Record<string, string>, port: number): NodeJS.ProcessEnv {
  const python = c.type === 'Python' ? { PYTHONUNBUFFERED: '1' } : {};
  // The Log Level is told to the app as LOG_LEVEL (its own variables may set another).
  const level = c.enableLogging ? { LOG_LEVEL: c.logLevel } : {};
  return { ...APP_BASE_ENV, NODE_ENV: c.environment, ...python, ...level, ...env, PORT: String(port) };
}

/** A starting release gets Health Check Interval + Health Check Timeout seconds to become healthy. */
export const healthBudgetMs = (c: AppConfig) => (c.healthCheckInterval + c.healthCheckTimeout) * 1000;

/**
 * Polls a release on its port every HEALTH_POLL_MS until healthy: 2xx on the health check path
 * (each try waiting at most Health Check Timeout), or, with health checks off, a TCP connection.
 */
export async function awaitHealthy(
  c: AppConfig,
  port: number,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<{ ok: boolean; last: string; cancelled?: boolean }> {
  const deadline = Date.now() + budgetMs;
  let last = '';
  for (;;) {
    if (signal?.aborted) return { ok: false, last, cancelled: true };
    if (c.enableHealthChecks) {
      const status = await probeHttp(port, c.healthCheckPath, c.healthCheckTimeout * 1000);
      last = status === null ? 'no answer' : `HTTP ${status}`;
      if (status !== null && status >= 200 && status < 300) return { ok: true, last };
    } else if (await probeTcp(port, c.healthCheckTimeout * 1000)) return { ok: true, last: 'port open' };
    if (Date.now() >= deadline) return { ok: false, last };
    await new Promise((r) => setTimeout(r, HEALTH_POLL_MS));
  }
}

/**
 * Starts a release folder's process on a fresh loopback port (from the app's Port up) and waits
 * until it is healthy: 2xx on the health check path (polled every 500 ms, each try waiting at most
 * Health Check Timeout; the release gets Health Check Interval + Health Check Timeout seconds in
 * all), or, with health checks off, a TCP connection. Throws with the process's last lines.
 */
export async function launchRelease(
  c: AppConfig,
  opts: {
    releaseId: number;
    cwd: string;
    env: Record<string, string>;
    runAs: RunAs;
    logFile: string;
    skipPorts: Set<number>;
    signal?: AbortSignal;
    log: (text: string) => void;
  },
): Promise<{ running: RunningRelease; startSeconds: number; healthSeconds: number }> {
  const argv = splitCommand(c.startCommand);
  if (!argv?.length) throw new Error('Start Command is empty');
  const t0 = Date.now();
  const port = await freeLoopbackPort(c.port, opts.skipPorts);
  const proc = new AppProcess({
    argv,
    cwd: opts.cwd,
    env: releaseEnv(c, opts.env, port),
    runAs: opts.runAs,
    // Enable Logging off: the output is kept only as the last lines (the error status), no file.
    logFile: c.enableLogging ? opts.logFile : '',
    logTag: c.name,
    stopArgv: c.stopCommand.trim() ? splitCommand(c.stopCommand) : null,
    // The release folder's parent holds every release of the app: its pid files are found there.
    pidFile: appPidFile(path.dirname(opts.cwd), port),
  });
  opts.log(`Starting ${argv.join(' ')} on 127.0.0.1:${port}`);
  await proc.start();
  const startSeconds = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  const budget = healthBudgetMs(c);
  const health = await awaitHealthy(c, port, budget, opts.signal);
  if (health.cancelled) {
    await proc.stop(1000);
    throw new Error('Cancelled');
  }
  const last = health.last;
  if (!health.ok) {
    const tail = proc.tail.slice(-10);
    await proc.stop(1000);
    const err = new Error(
      `The new release did not answer 2xx on ${c.healthCheckPath} within ${budget / 1000} s (last: ${last || 'no answer'}); the previous release keeps serving`,
    );
    (err as Error & { tail?: string[] }).tail = tail;
    throw err;
  }
  proc.healthy();
  opts.log(`Healthy on 127.0.0.1:${port} (${c.enableHealthChecks ? `${c.healthCheckPath}: ${last}` : last})`);
  return {
    running: { releaseId: opts.releaseId, port, proc },
    startSeconds,
    healthSeconds: (Date.now() - t1) / 1000,
  };
}

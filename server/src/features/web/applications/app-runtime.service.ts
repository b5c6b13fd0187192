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
import {
  describeLimits,
  LimitGroup,
  limitSupport,
  type Limits,
  parseCpuLimit,
  parseMemoryLimit,
  systemdScopePrefix,
} from '../../../host/app-limits.ts';
import type { AppResourceLimits } from '@mailroom/contract/web/applications';
import type { AppConfig } from './application.repository.ts';

/** A running instance of a release of an application (one process on one port). */
export interface RunningRelease {
  releaseId: number;
  port: number;
  proc: AppProcess;
  /** 1, 2, 3…: in its environment as MAILROOM_INSTANCE. */
  instance: number;
  /** The cgroup it is confined to (Memory Limit, CPU Limit); null: none (systemd unit, or not enforced). */
  group?: LimitGroup | null;
}

/** An app's Memory Limit and CPU Limit as the kernel takes them. */
export const appLimits = (c: Pick<AppConfig, 'memoryLimit' | 'cpuLimit'>): Limits => ({
  memoryBytes: parseMemoryLimit(c.memoryLimit),
  cpuQuotaUs: parseCpuLimit(c.cpuLimit),
});

/** The limit state the application's panel shows. */
export async function resourceLimitsView(
  c: Pick<AppConfig, 'memoryLimit' | 'cpuLimit' | 'type'>,
  systemMode: boolean,
): Promise<AppResourceLimits> {
  const l = appLimits(c);
  if (l.memoryBytes === null && l.cpuQuotaUs === null)
    return {
      enforced: false,
      mechanism: '',
      detail: 'limit not enforced: Memory Limit and CPU Limit are empty',
    };
  const s = await limitSupport(systemMode);
  if (s.mechanism === 'none')
    return { enforced: false, mechanism: '', detail: `limit not enforced: ${s.reason}` };
  const mechanism =
    s.mechanism === 'systemd' ? 'systemd unit' : s.mechanism === 'cgroup2' ? 'cgroup v2' : 'cgroup v1';
  return { enforced: true, mechanism, detail: describeLimits(s.mechanism, l) };
}

/** How often a starting release is asked for its health. */
export const HEALTH_POLL_MS = 500;

/** The environment variable that tells an instance which one it is. */
export const INSTANCE_ENV = 'MAILROOM_INSTANCE';

/**
 * The instances a release runs as: 1 without Enable Load Balancing; with it, the number running now
 * (a scaled app keeps its scale across a deploy) kept within Min Instances..Max Instances.
 */
export function instanceTarget(
  c: Pick<AppConfig, 'enableLoadBalancing' | 'minInstances' | 'maxInstances'>,
  runningNow = 0,
): number {
  if (!c.enableLoadBalancing) return 1;
  const min = Math.max(1, c.minInstances);
  const max = Math.max(min, c.maxInstances);
  return Math.min(max, Math.max(min, runningNow));
}

/**
 * The app processes this Mailroom supervises (local mode): the running instances of one release per
 * application, plus the new ones while a deploy checks them. Processes stop with Mailroom.
 */
export class AppRuntime {
  private readonly running = new Map<number, RunningRelease[]>();

  /** The first instance (its port is the app's running port). */
  get(appId: number): RunningRelease | undefined {
    return this.running.get(appId)?.[0];
  }

  /** Every running instance of the app's live release. */
  instances(appId: number): RunningRelease[] {
    return [...(this.running.get(appId) ?? [])];
  }

  set(appId: number, r: RunningRelease | RunningRelease[]): void {
    this.running.set(appId, Array.isArray(r) ? [...r] : [r]);
  }

  add(appId: number, r: RunningRelease): void {
    this.running.set(appId, [...(this.running.get(appId) ?? []), r]);
  }

  remove(appId: number, r: RunningRelease): void {
    const left = (this.running.get(appId) ?? []).filter((x) => x !== r);
    if (left.length) this.running.set(appId, left);
    else this.running.delete(appId);
  }

  forget(appId: number, releaseId: number): void {
    if (this.get(appId)?.releaseId === releaseId) this.running.delete(appId);
  }

  ports(): Set<number> {
    return new Set([...this.running.values()].flat().map((r) => r.port));
  }

  async closeAll(): Promise<void> {
    await stopInstances([...this.running.values()].flat(), 5000);
    this.running.clear();
  }
}

/** Stops every instance (in parallel), each given `timeoutMs`; their cgroups go with them. */
export async function stopInstances(list: RunningRelease[], timeoutMs: number): Promise<void> {
  await Promise.all(
    list.map(async (r) => {
      await r.proc.stop(timeoutMs);
      await r.group?.remove();
    }),
  );
}

/**
 * The process environment of a release: the base, NODE_ENV from the environment field (Python:
 * PYTHONUNBUFFERED=1 too, so its output reaches the log line by line), LOG_LEVEL from the Log Level,
 * its variables, PORT.
 */
export function releaseEnv(
  c: AppConfig,
  env: Record<string, string>,
  port: number,
  instance?: number,
): NodeJS.ProcessEnv {
  const python = c.type === 'Python' ? { PYTHONUNBUFFERED: '1' } : {};
  // The Log Level is told to the app as LOG_LEVEL (its own variables may set another).
  const level = c.enableLogging ? { LOG_LEVEL: c.logLevel } : {};
  const id = instance === undefined ? {} : { [INSTANCE_ENV]: String(instance) };
  return {
    ...APP_BASE_ENV,
    NODE_ENV: c.environment,
    ...python,
    ...level,
    ...env,
    ...id,
    PORT: String(port),
  };
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
    /** Which instance (MAILROOM_INSTANCE; 1 when not given). */
    instance?: number;
    /** A port already chosen (else the first free one from the app's Port up). */
    port?: number;
    /** Mailroom runs the real / (systemd units when systemd is PID 1). */
    systemMode?: boolean;
  },
): Promise<{ running: RunningRelease; startSeconds: number; healthSeconds: number }> {
  const argv = splitCommand(c.startCommand);
  if (!argv?.length) throw new Error('Start Command is empty');
  const t0 = Date.now();
  const port = opts.port ?? (await freeLoopbackPort(c.port, opts.skipPorts));
  const instance = opts.instance ?? 1;
  // Memory Limit and CPU Limit: its own systemd unit, or its own cgroup (host/app-limits.ts).
  const limits = appLimits(c);
  const unit = `mailroom-app-${c.name}-${port}`;
  const support = await limitSupport(!!opts.systemMode);
  const limited = limits.memoryBytes !== null || limits.cpuQuotaUs !== null;
  const scope =
    limited && support.mechanism === 'systemd' ? systemdScopePrefix(unit, limits, opts.runAs) : null;
  const group =
    limited && (support.mechanism === 'cgroup2' || support.mechanism === 'cgroup1')
      ? await LimitGroup.open(unit, limits, !!opts.systemMode).catch((err: unknown) => {
          opts.log(`Limits not applied: ${String(err)}`);
          return null;
        })
      : null;
  const proc = new AppProcess({
    ...(scope ? { scope } : {}),
    ...(group ? { onSpawn: (pid: number) => group.add(pid) } : {}),
    argv,
    cwd: opts.cwd,
    env: releaseEnv(c, opts.env, port, instance),
    runAs: opts.runAs,
    // Enable Logging off: the output is kept only as the last lines (the error status), no file.
    logFile: c.enableLogging ? opts.logFile : '',
    logTag: c.name,
    stopArgv: c.stopCommand.trim() ? splitCommand(c.stopCommand) : null,
    // The release folder's parent holds every release of the app: its pid files are found there.
    pidFile: appPidFile(path.dirname(opts.cwd), port),
  });
  opts.log(`Starting ${argv.join(' ')} on 127.0.0.1:${port} (instance ${instance})`);
  await proc.start();
  if (group) opts.log(`Confined to its cgroup: ${describeLimits(support.mechanism, limits)}`);
  else if (scope) opts.log(`In its own systemd unit ${unit} (${describeLimits('systemd', limits)})`);
  const startSeconds = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  const budget = healthBudgetMs(c);
  const health = await awaitHealthy(c, port, budget, opts.signal);
  if (health.cancelled) {
    await proc.stop(1000);
    await group?.remove();
    throw new Error('Cancelled');
  }
  const last = health.last;
  if (!health.ok) {
    const tail = proc.tail.slice(-10);
    await proc.stop(1000);
    await group?.remove();
    const err = new Error(
      `The new release did not answer 2xx on ${c.healthCheckPath} within ${budget / 1000} s (last: ${last || 'no answer'}); the previous release keeps serving`,
    );
    (err as Error & { tail?: string[] }).tail = tail;
    throw err;
  }
  proc.healthy();
  opts.log(`Healthy on 127.0.0.1:${port} (${c.enableHealthChecks ? `${c.healthCheckPath}: ${last}` : last})`);
  return {
    running: { releaseId: opts.releaseId, port, proc, instance, group },
    startSeconds,
    healthSeconds: (Date.now() - t1) / 1000,
  };
}

/**
 * Starts `count` instances of a release (ports chosen one after another, then started and
 * health-checked together; instance ids `firstInstance`…). All healthy or none: when one fails,
 * the others are stopped and the error (with that instance's last lines) is thrown.
 */
export async function launchInstances(
  c: AppConfig,
  count: number,
  opts: Omit<Parameters<typeof launchRelease>[1], 'instance' | 'port'> & { firstInstance?: number },
): Promise<{ running: RunningRelease[]; startSeconds: number; healthSeconds: number }> {
  const skip = new Set(opts.skipPorts);
  const ports: number[] = [];
  for (let i = 0; i < count; i++) {
    const p = await freeLoopbackPort(c.port, skip);
    skip.add(p);
    ports.push(p);
  }
  const first = opts.firstInstance ?? 1;
  const results = await Promise.allSettled(
    ports.map((port, i) => launchRelease(c, { ...opts, skipPorts: skip, port, instance: first + i })),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (failed) {
    await stopInstances(
      ok.map((r) => r.running),
      1000,
    );
    throw failed.reason;
  }
  return {
    running: ok.map((r) => r.running),
    startSeconds: Math.max(...ok.map((r) => r.startSeconds)),
    healthSeconds: Math.max(...ok.map((r) => r.healthSeconds)),
  };
}

import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import pino from 'pino';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureInitialAdmin } from './features/auth/admin.service.ts';
import { relayWorkerEvents } from './host/cluster-events.ts';

/**
 * How many server processes to run: MAILROOM_WORKERS when set (1 = no cluster), else two on a
 * machine with two or more cores (one Node process saturates one core), else one.
 */
export function workerCount(configured: number | undefined, cores = os.availableParallelism()): number {
  if (configured !== undefined) return configured;
  return Math.min(cores, 2);
}

/** Migrations and the first administrator: done once, before any server answers. */
export async function prepareDatabase(config: Config, log: (o: object | string, msg?: string) => void) {
  const database = openDatabase(config);
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) log({ migrations: applied }, 'database migrated');
    await ensureInitialAdmin(database.db, { email: config.adminEmail, password: config.adminPassword }, (m) =>
      log(m),
    );
  } finally {
    await database.close();
  }
}

/**
 * The primary of cluster mode: prepares the database, then runs `count` workers that share the
 * port (node:cluster hands connections out in turn). A worker that dies is replaced; one that
 * dies before it ever listened stops the whole server (a bad port, a broken database). SIGTERM or
 * SIGINT stops every worker (each closes its server and jobs), then the primary.
 *
 * What must happen once across workers (and across machines on one PostgreSQL) does not rely on
 * this process: it takes a database lock (db/locks.ts) — the job queue's pick-up and sweep, the
 * mail configuration render at start, schedulers, the daemon supervisor.
 */
export async function runPrimary(config: Config, count: number): Promise<void> {
  const logger = pino({ level: config.logLevel });
  const log = (o: object | string, msg?: string) =>
    typeof o === 'string' ? logger.warn(o) : logger.info(o, msg);
  await prepareDatabase(config, log);
  const workers = forkWorkers(count, { logger, onFatal: () => void stop(1) });
  const stop = async (code: number) => {
    const codes = await workers.stop();
    process.exit(code || (codes.every((c) => c === 0) ? 0 : 1));
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
}

/**
 * Runs `count` HTTP workers sharing the port: one that dies is replaced; one that dies before it
 * ever listened calls `onFatal` (a bad port, a broken database). `stop()` sends SIGTERM to each
 * (each closes its server and jobs) and answers their exit codes.
 */
export function forkWorkers(
  count: number,
  opts: { logger: pino.Logger; env?: Record<string, string>; onFatal: () => void },
): { stop(): Promise<number[]> } {
  const { logger } = opts;
  let closing = false;
  const listening = new WeakSet<Worker>();
  const fork = () => {
    const w = cluster.fork({ MAILROOM_CLUSTER_WORKER: '1', ...opts.env });
    w.on('listening', () => listening.add(w));
    return w;
  };
  let failures = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    if (!listening.has(worker)) {
      logger.error({ pid: worker.process.pid, code, signal }, 'a worker failed to start; stopping');
      opts.onFatal();
      return;
    }
    failures++;
    logger.error({ pid: worker.process.pid, code, signal }, 'a worker stopped; starting another');
    setTimeout(() => (closing ? undefined : fork()), Math.min(5000, 200 * failures)).unref();
  });
  for (let i = 0; i < count; i++) fork();
  // What one worker publishes live reaches every worker's event streams (host/cluster-events.ts).
  const stopRelay = relayWorkerEvents();
  logger.info({ workers: count }, 'cluster started');

  let stopping: Promise<number[]> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      closing = true;
      stopRelay();
      logger.info('stopping the workers');
      const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      const exits = all.map(
        (w) =>
          new Promise<number>((resolve) => {
            if (w.isDead()) return resolve(w.process.exitCode ?? 0);
            w.once('exit', (c) => resolve(c ?? 0));
            w.process.kill('SIGTERM');
          }),
      );
      const timer = setTimeout(() => {
        for (const w of all) if (!w.isDead()) w.process.kill('SIGKILL');
      }, 15_000);
      timer.unref();
      const codes = await Promise.all(exits);
      clearTimeout(timer);
      return codes;
    })());
  return { stop };
}

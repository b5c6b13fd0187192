import cluster from 'node:cluster';
import path from 'node:path';
import { buildApp } from './app.ts';
import pino from 'pino';
import { forkWorkers, runPrimary, workerCount } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureInitialAdmin } from './features/auth/admin.service.ts';
import { Host } from './host/host.ts';
import { systemServiceControl } from './host/system-services.ts';
import { LocalServices, notRunReason } from './host/local-services.ts';
import { PrimaryServices, serveWorkers, SUPERVISED_WORKER_ENV } from './host/supervisor-ipc.ts';
import { localApacheDaemon } from './features/web/web.module.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    throw err;
  }
  // Several processes share the port on a multi-core machine (MAILROOM_WORKERS, cluster.ts). When
  // Mailroom itself runs the mail and DNS daemons (local mode as root), the primary process is the
  // supervisor (daemons, Apache, schedulers, alerts, metrics) and does not serve HTTP; the workers
  // beside it serve, and reach the daemons through it (host/supervisor-ipc.ts).
  const runsDaemons = config.hostRoot !== '/' && notRunReason(config, process.getuid?.() === 0) === null;
  const workers = workerCount(config.workers);
  if (cluster.isPrimary && workers > 1 && !runsDaemons) {
    await runPrimary(config, workers);
    return;
  }
  const worker = cluster.isWorker;
  // This process supervises and forks the HTTP workers.
  const supervisorOfWorkers = cluster.isPrimary && workers > 1 && runsDaemons;
  // A worker whose daemons the primary runs.
  const daemonsInPrimary = worker && process.env[SUPERVISED_WORKER_ENV] === '1';
  const database = openDatabase(config);
  // A cluster's primary migrated and made the administrator before forking.
  const applied = worker ? [] : await migrateToLatest(database.db);
  const host = new Host(config.hostRoot, config.reload, path.join(config.dataDir, 'backups', 'system-files'));
  // System mode: systemd runs the daemons; Mailroom reads their states and (with MAILROOM_RELOAD)
  // reloads them through sudo. Local mode: Mailroom runs them itself (as root, unless
  // MAILROOM_RUN_DAEMONS=0) and always reports them.
  const logTo: { app?: { info(o: object, m: string): void } } = {};
  const local =
    config.hostRoot === '/' || daemonsInPrimary
      ? null
      : await LocalServices.create(host, config, {
          log: (m, f) => logTo.app?.info({ daemons: f ?? {} }, m),
        });
  const services = daemonsInPrimary ? new PrimaryServices() : (local ?? systemServiceControl(host));
  // Local mode as root: Apache runs from the web area's files too, beside the mail daemons.
  const webDaemon =
    runsDaemons && !daemonsInPrimary
      ? await localApacheDaemon(host, config, (m, f) => logTo.app?.info({ apache: f ?? {} }, m))
      : null;
  const app = await buildApp(
    { config, database, host, services, ...(webDaemon ? { webDaemon } : {}) },
    { logger: { level: config.logLevel } },
  );
  logTo.app = app.log;
  if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
  if (!worker)
    await ensureInitialAdmin(database.db, { email: config.adminEmail, password: config.adminPassword }, (m) =>
      app.log.warn(m),
    );

  let closing = false;
  let stopWorkers: () => Promise<number[]> = async () => [];
  let stopServing = () => undefined as void;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // The workers first (their requests may still ask the supervisor), then the daemons.
    void stopWorkers()
      .then(() => stopServing())
      .then(() => app.close())
      .then(() => services.close())
      .then(() => database.close())
      .then(() => process.exit(0));
    // The supervisor waits for its workers (up to 15 s) and then its daemons (up to 15 s each, at once).
    setTimeout(() => process.exit(1), supervisorOfWorkers ? 60_000 : 30_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  if (supervisorOfWorkers) {
    stopServing = serveWorkers(services, (o, m) => app.log.info(o, m));
    const fork = forkWorkers(workers, {
      logger: pino({ level: config.logLevel }),
      env: { [SUPERVISED_WORKER_ENV]: '1' },
      onFatal: () => shutdown('a worker failed to start'),
    });
    stopWorkers = () => fork.stop();
    app.log.info({ workers, pid: process.pid }, 'supervisor started; HTTP workers serve the port');
  } else await app.listen({ port: config.port, host: config.host });
  if (local) {
    const { yes, reason } = local.runs;
    if (yes) {
      local.start().catch((err: unknown) => app.log.error({ err }, 'could not start the daemons'));
    } else app.log.info(reason ?? 'the daemons are not started');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Mailroom failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});

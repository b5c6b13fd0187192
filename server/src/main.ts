import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureInitialAdmin } from './features/auth/admin.service.ts';
import { Host } from './host/host.ts';
import { LocalServices } from './host/local-services.ts';

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
  const database = openDatabase(config);
  const applied = await migrateToLatest(database.db);
  const host = new Host(config.hostRoot, config.reload);
  // Local mode: Mailroom runs the daemons itself (as root, unless MAILROOM_RUN_DAEMONS=0) and
  // always reports them; system mode leaves them to systemd.
  const logTo: { app?: { info(o: object, m: string): void } } = {};
  const services =
    config.hostRoot === '/'
      ? undefined
      : await LocalServices.create(host, config, { log: (m, f) => logTo.app?.info({ daemons: f ?? {} }, m) });
  const app = await buildApp(
    { config, database, host, ...(services ? { services } : {}) },
    { logger: { level: config.logLevel } },
  );
  logTo.app = app.log;
  if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
  await ensureInitialAdmin(database.db, { email: config.adminEmail, password: config.adminPassword }, (m) =>
    app.log.warn(m),
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    void app
      .close()
      .then(() => services?.close())
      .then(() => database.close())
      .then(() => process.exit(0));
    setTimeout(() => process.exit(1), 30_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (services) {
    const { yes, reason } = services.runs;
    if (yes) {
      services.start().catch((err: unknown) => app.log.error({ err }, 'could not start the daemons'));
    } else app.log.info(reason ?? 'the daemons are not started');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Mailroom failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});

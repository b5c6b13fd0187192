import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../src/app.ts';
import type { AppDeps } from '../src/app-deps.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type DatabaseHandle, type Dialect, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { addAdmin } from '../src/features/auth/admin.service.ts';
import { Host } from '../src/host/host.ts';
import type { ServiceControl } from '../src/host/service-control.ts';
import type { ApacheDaemon } from '../src/host/apache-daemon.ts';
import type { MetricsSource } from '../src/features/system/live/metrics-source.types.ts';
import { closeReporting } from './close-stall.ts';

export const ADMIN = { email: 'admin@example.com', password: 'correct-horse-battery' };

/** The databases a test file runs on: SQLite always, PostgreSQL when the harness started one. */
export function dialects(): Dialect[] {
  return inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestContext {
  app: FastifyInstance;
  deps: AppDeps;
  dataDir: string;
  /** A fresh session key for ADMIN. */
  token: string;
  /** `app.inject` with the admin's bearer key. */
  call(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

async function freshDatabase(dialect: Dialect, dataDir: string): Promise<DatabaseHandle> {
  if (dialect === 'sqlite') return openDatabase({ dataDir });
  const base = inject('pgUrl');
  if (!base) throw new Error('PostgreSQL is not available');
  const name = `t_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return openDatabase({ databaseUrl: base.replace(/\/postgres$/, `/${name}`), dataDir });
}

/**
 * Drops a test's PostgreSQL database once its app is closed, so a run does not grow the cluster by
 * every test's database (about 1.5 GB over the API tier). A database still in use (a test that keeps
 * another connection) stays; the cluster goes at the end of the run anyway.
 */
async function dropTestDatabase(database: DatabaseHandle): Promise<void> {
  if (database.dialect !== 'postgres' || !database.postgresUrl) return;
  const url = new URL(database.postgresUrl);
  const name = url.pathname.slice(1);
  if (!/^t_\w+$/.test(name)) return;
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } catch {
    /* still in use: left to the end of the run */
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** A migrated database, an app on it, and a signed-in administrator. */
export async function startTestApp(
  dialect: Dialect,
  opts: BuildOptions & {
    env?: Record<string, string>;
    /** A ServiceControl for the app (e.g. the local supervisor), made from its host and config. */
    services?: (host: Host, config: Config) => Promise<ServiceControl>;
    /** The metrics collector the app reads (alerts); tests pass a source they control. */
    metrics?: MetricsSource;
    /** Apache run by the app (local mode, web area), made from its host and config. */
    webDaemon?: (host: Host, config: Config) => Promise<ApacheDaemon | null>;
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-test-'));
  const config = loadConfig({
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
    ...opts.env,
  });
  const database = await freshDatabase(dialect, dataDir);
  await migrateToLatest(database.db);
  await addAdmin(database.db, ADMIN.email, ADMIN.password);
  const host = new Host(config.hostRoot, false);
  const deps: AppDeps = { config, database, host };
  if (opts.services) deps.services = await opts.services(host, config);
  if (opts.metrics) deps.metrics = opts.metrics;
  if (opts.webDaemon) {
    const d = await opts.webDaemon(host, config);
    if (d) deps.webDaemon = d;
  }
  const app = await buildApp(deps, { warmUpdates: false, ...opts });
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
  const token = login.json<{ api_key: string }>().api_key;
  return {
    app,
    deps,
    dataDir,
    token,
    call: (o) => app.inject({ ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers ?? {}) } }),
    async close() {
      await closeReporting(app, database);
      await dropTestDatabase(database);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

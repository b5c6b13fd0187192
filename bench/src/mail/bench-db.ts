import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, type Dialect, openDatabase } from '../../../server/src/db/database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { type Cluster, findPgBin, startCluster } from '../../../server/test/postgres-cluster.ts';

export interface BenchDb {
  handle: DatabaseHandle;
  dataDir: string;
  /** What a child process needs to open the same database. */
  url: string | undefined;
  close(): Promise<void>;
}

let cluster: Cluster | null = null;

/** A PostgreSQL cluster for the suite, or null (with a loud line) when the binaries are missing. */
export async function benchCluster(log: (m: string) => void): Promise<Cluster | null> {
  if (cluster) return cluster;
  if (!findPgBin()) {
    log('!!! PostgreSQL binaries missing (Debian package: postgresql): PostgreSQL figures SKIPPED !!!');
    return null;
  }
  cluster = await startCluster();
  return cluster;
}

export async function stopBenchCluster(): Promise<void> {
  const c = cluster;
  cluster = null;
  await c?.stop();
}

/** A fresh, migrated database in a fresh data folder. */
export async function openBenchDb(dialect: Dialect, pgBase?: string): Promise<BenchDb> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-'));
  let url: string | undefined;
  if (dialect === 'postgres') {
    if (!pgBase) throw new Error('no PostgreSQL cluster');
    const name = `bench_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    url = pgBase.replace(/\/postgres$/, `/${name}`);
  }
  const handle = openDatabase({ databaseUrl: url, dataDir });
  await migrateToLatest(handle.db);
  return {
    handle,
    dataDir,
    url,
    async close() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

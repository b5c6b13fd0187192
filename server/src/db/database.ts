import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, PostgresAdapter } from 'kysely';
import pg from 'pg';
import { registerCommitWatch } from './commit-version.ts';
import { registerRawSqlite } from './prepared.ts';
import { SqliteWriteDialect } from './sqlite-driver.ts';
import type { Database } from './schema.ts';

// int8 and numeric come back as strings by default; our counts and byte sizes fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** SQLite file path (absent on PostgreSQL): Postfix and Dovecot read it directly. */
  sqlitePath?: string;
  /** The connection URL for PostgreSQL (absent on SQLite). */
  postgresUrl?: string;
  close(): Promise<void>;
}

export function openDatabase(opts: { databaseUrl?: string | undefined; dataDir: string }): DatabaseHandle {
  const url = opts.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', postgresUrl: url, close: () => db.destroy() };
  }
  const file = url?.startsWith('sqlite:')
    ? path.resolve(url.slice('sqlite:'.length))
    : path.join(opts.dataDir, 'mailroom.db');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Transactions take the write lock when they begin (BEGIN IMMEDIATE) and wait for another
  // process's without stopping the event loop (db/sqlite-driver.ts).
  const db = new Kysely<Database>({ dialect: new SqliteWriteDialect(sqlite) });
  registerRawSqlite(db, sqlite);
  const closeWatch = registerCommitWatch(db, file);
  return {
    db,
    dialect: 'sqlite',
    sqlitePath: file,
    close: () => {
      closeWatch();
      return db.destroy();
    },
  };
}

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

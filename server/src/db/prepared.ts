import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

const rawSqlite = new WeakMap<object, SQLite.Database>();

/** Lets hot queries on this Kysely instance use cached better-sqlite3 statements. */
export function registerRawSqlite(db: Kysely<Database>, sqlite: SQLite.Database): void {
  rawSqlite.set(db, sqlite);
}

/**
 * A query built once and run many times with new parameters: Kysely's query building and
 * better-sqlite3's statement preparation dominate a small read, so hot paths (the session lookup on
 * every request) skip both. `build` is called once with the instance; its parameter values are
 * placeholders, replaced in order by `params` at each call. Inside a transaction (an instance not
 * registered) it runs the same SQL through Kysely.
 *
 * The cached statement runs while holding Kysely's connection (`db.connection()`): SQLite has one
 * connection, and a statement run beside Kysely's lock would execute inside whatever transaction
 * another request has open on it, reading its uncommitted rows and rolling back with it.
 */
export function preparedQuery<Row>(build: (db: Kysely<Database>) => Compilable<Row>) {
  const cache = new WeakMap<object, { sql: string; stmt: SQLite.Statement | null }>();
  const entryOf = (db: Kysely<Database>) => {
    let entry = cache.get(db);
    if (!entry) {
      const { sql } = build(db).compile();
      const sqlite = rawSqlite.get(db);
      entry = { sql, stmt: sqlite ? sqlite.prepare(sql) : null };
      cache.set(db, entry);
    }
    return entry;
  };
  const runStmt = (stmt: SQLite.Statement, params: readonly unknown[]) =>
    stmt.reader ? (stmt.all(...params) as Row[]) : (stmt.run(...params), []);
  const run = async (db: Kysely<Database>, params: readonly unknown[]): Promise<Row[]> => {
    const { sql, stmt } = entryOf(db);
    if (stmt) return db.connection().execute(async () => runStmt(stmt, params));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...params]));
    return result.rows;
  };
  /**
   * For a caller inside its own open transaction on SQLite: the one connection is already held
   * (by that transaction), so taking it again would wait forever; the statement runs in it.
   */
  run.inHeldTransaction = async (db: Kysely<Database>, params: readonly unknown[]): Promise<Row[]> => {
    const { sql, stmt } = entryOf(db);
    if (stmt) return runStmt(stmt, params);
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...params]));
    return result.rows;
  };
  return run;
}

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
 * another request has open on it, reading its uncommitted rows and rolling back with it. A caller
 * that runs inside its own transaction passes it as `holding`: the statement then runs at once on
 * the connection that transaction holds (waiting for the lock would wait for itself).
 */
export function preparedQuery<Row>(build: (db: Kysely<Database>) => Compilable<Row>) {
  const cache = new WeakMap<object, { sql: string; stmt: SQLite.Statement | null }>();
  return async (
    db: Kysely<Database>,
    params: readonly unknown[],
    holding?: Kysely<Database>,
  ): Promise<Row[]> => {
    let entry = cache.get(db);
    if (!entry) {
      const { sql } = build(db).compile();
      const sqlite = rawSqlite.get(db);
      entry = { sql, stmt: sqlite ? sqlite.prepare(sql) : null };
      cache.set(db, entry);
    }
    const stmt = entry.stmt;
    if (stmt) {
      if (holding?.isTransaction)
        return stmt.reader ? (stmt.all(...params) as Row[]) : (stmt.run(...params), []);
      return db
        .connection()
        .execute(async () => (stmt.reader ? (stmt.all(...params) as Row[]) : (stmt.run(...params), [])));
    }
    const result = await db.executeQuery<Row>(CompiledQuery.raw(entry.sql, [...params]));
    return result.rows;
  };
}

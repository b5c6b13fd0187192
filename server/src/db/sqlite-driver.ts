import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely';

/** How long a transaction waits for another process's write lock before it fails (SQLITE_BUSY). */
export const SQLITE_WRITE_WAIT_MS = 5000;
const STATEMENT_CACHE = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The connection's lock, handed to waiters in turn: an unlock wakes the next waiter only (a shared
 * promise woke every waiter at each unlock, all but one to wait again: under 10 concurrent
 * requests that was most of a small read's promise work).
 */
class Mutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];
  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  unlock(): void {
    const next = this.#waiters.shift();
    // The lock passes straight to the next waiter (it stays held).
    if (next) next();
    else this.#locked = false;
  }
}

/** The one connection, with its prepared statements kept (Kysely's prepares every query again). */
class CachedConnection implements DatabaseConnection {
  readonly #db: SQLite.Database;
  readonly #statements = new Map<string, SQLite.Statement>();
  constructor(db: SQLite.Database) {
    this.#db = db;
  }

  statement(sql: string): SQLite.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE) this.#statements.clear();
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.statement(q.sql);
    const params = q.parameters as unknown[];
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(params) as R[] });
    const { changes, lastInsertRowid } = stmt.run(params);
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(q.query)) throw new Error('SQLite streams only select queries');
    // Its own statement: a cached one would be busy while the stream is read.
    for (const row of this.#db.prepare(q.sql).iterate(q.parameters)) yield { rows: [row as R] };
  }
}

/**
 * Kysely's SQLite driver with two changes for several processes on one database file:
 *
 * - A transaction begins with `BEGIN IMMEDIATE` (it takes the write lock first: a deferred one that
 *   read first cannot become a writer once another connection committed, and fails at once), and
 *   waits for another process's write lock **asynchronously**: SQLite's busy timeout sleeps inside
 *   the call, which stopped this process's event loop — every request of the process, reads
 *   included — for as long as the other process wrote (up to 5 s, then SQLITE_BUSY: "database is
 *   locked" under the 50-client load). While it waits, the connection is lent to this process's
 *   other queries.
 * - Statements are prepared once per SQL text and kept.
 */
class SqliteWriteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #db: SQLite.Database;
  readonly #connection: CachedConnection;
  readonly #begin: SQLite.Statement;

  constructor(db: SQLite.Database) {
    this.#db = db;
    this.#connection = new CachedConnection(db);
    this.#begin = db.prepare('begin immediate');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    const started = Date.now();
    const timeout = Number(this.#db.pragma('busy_timeout', { simple: true }));
    for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
      this.#db.pragma('busy_timeout = 0');
      try {
        this.#begin.run();
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started > SQLITE_WRITE_WAIT_MS)
          throw err;
      } finally {
        this.#db.pragma(`busy_timeout = ${timeout}`);
      }
      this.#mutex.unlock();
      await sleep(wait);
      await this.#mutex.lock();
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#db.close();
  }
}

/** The SQLite dialect on this driver. */
export class SqliteWriteDialect extends SqliteDialect {
  readonly #db: SQLite.Database;
  constructor(db: SQLite.Database) {
    super({ database: db });
    this.#db = db;
  }
  override createDriver(): Driver {
    return new SqliteWriteDriver(this.#db);
  }
}

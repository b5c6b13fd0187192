import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

interface Watch {
  file: string;
  conn: SQLite.Database | null;
  stmt: SQLite.Statement | null;
  failed: boolean;
}

const watches = new WeakMap<object, Watch>();

/**
 * Lets `commitVersion` watch the SQLite file behind this Kysely instance (db/database.ts calls it).
 * Answers the function that closes the watching connection.
 */
export function registerCommitWatch(db: Kysely<Database>, file: string): () => void {
  const w: Watch = { file, conn: null, stmt: null, failed: false };
  watches.set(db, w);
  return () => {
    w.conn?.close();
    w.conn = null;
    w.stmt = null;
    w.failed = true;
  };
}

/**
 * A number that changes whenever any connection — another worker process, another request of this
 * process — has committed a change to the SQLite database since the last call answered it
 * (`PRAGMA data_version`, read on a connection of its own that never holds a transaction, so it
 * sees exactly what is committed). Caches of database state (the session lookup) stay valid while
 * it is unchanged: nothing anywhere can have changed the state they hold. Costs one read of the
 * WAL index, no table. Null when there is nothing to watch (PostgreSQL, a closed database, or the
 * read failed): the caller then reads the database itself.
 */
export function commitVersion(db: Kysely<Database>): number | null {
  const w = watches.get(db);
  if (!w || w.failed) return null;
  try {
    if (!w.stmt) {
      w.conn = new SQLite(w.file, { fileMustExist: true });
      // Never wait inside the call (it would stop the event loop): a busy file means no answer.
      w.conn.pragma('busy_timeout = 0');
      w.stmt = w.conn.prepare('PRAGMA data_version').pluck();
    }
    return w.stmt.get() as number;
  } catch {
    return null;
  }
}

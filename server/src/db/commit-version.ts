import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The WAL-index header: two copies of a 48-byte record at the start of `<db>-shm`. */
const HEADER = 48;

interface Watch {
  shm: string;
  fd: number | null;
  read: Buffer;
  last: Buffer;
  version: number;
  closed: boolean;
}

const watches = new WeakMap<object, Watch>();

/**
 * Lets `commitVersion` watch the SQLite file behind this Kysely instance (db/database.ts calls it,
 * on a database in WAL mode). Answers the function that stops watching.
 */
export function registerCommitWatch(db: Kysely<Database>, file: string): () => void {
  const w: Watch = {
    shm: `${file}-shm`,
    fd: null,
    read: Buffer.alloc(2 * HEADER),
    last: Buffer.alloc(HEADER),
    version: 0,
    closed: false,
  };
  watches.set(db, w);
  return () => {
    if (w.fd !== null) fs.closeSync(w.fd);
    w.fd = null;
    w.closed = true;
  };
}

/**
 * A number that changes whenever any connection — another worker process, another request of this
 * process, Dovecot's quota writes — has committed to the SQLite database since the last call
 * answered it. Caches of database state (the session lookup) stay valid while it is unchanged:
 * nothing anywhere can have changed the state they hold. Null when there is no answer (PostgreSQL,
 * a closed database, the header being written this instant): the caller then reads the database.
 *
 * Every commit in WAL mode rewrites the WAL-index header in `<db>-shm` (its frame count and running
 * checksum, its salts when the log restarts), first the second copy, then the first: the header
 * read with one pread (two copies equal, initialised) tells whether anything was committed since
 * the last call. That is one system call without locks, where `PRAGMA data_version` took eight
 * (the read lock's fcntl calls and the file checks of a read transaction). The file stays, and stays
 * the same: this process holds its database connection open, and SQLite removes `-shm` only when
 * its last connection anywhere closes.
 */
export function commitVersion(db: Kysely<Database>): number | null {
  const w = watches.get(db);
  if (!w || w.closed) return null;
  try {
    if (w.fd === null) w.fd = fs.openSync(w.shm, 'r');
    if (fs.readSync(w.fd, w.read, 0, 2 * HEADER, 0) < 2 * HEADER) return null;
  } catch {
    return null;
  }
  // isInit (byte 12) unset, or a writer between the two copies: no answer.
  if (w.read[12] !== 1 || w.read.compare(w.read, HEADER, 2 * HEADER, 0, HEADER) !== 0) return null;
  if (w.read.compare(w.last, 0, HEADER, 0, HEADER) !== 0) {
    w.read.copy(w.last, 0, 0, HEADER);
    w.version++;
  }
  return w.version;
}

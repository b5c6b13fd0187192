import { randomBytes } from 'node:crypto';
import os from 'node:os';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseHandle } from './database.ts';

/**
 * Named locks shared by every Mailroom process on one database, for work that must happen once
 * (the job queue's pick-up, schedulers, the startup render, the daemon supervisor) or one at a
 * time (applies of one target).
 *
 * - SQLite: a row in `locks` (name, owner, expiry) claimed by one upsert; SQLite's file lock makes
 *   the statement atomic across processes. It runs on a connection of its own that never waits
 *   (busy → try again later), so neither the event loop nor Kysely's connection is held. The
 *   holder renews the expiry; a crashed holder's lock frees itself when it expires.
 * - PostgreSQL: session advisory locks (`pg_try_advisory_lock`) on a dedicated connection held
 *   while the lock is; a crashed holder's connection closes and the lock goes with it.
 *
 * Do not call `withLock` from inside an open Kysely transaction on SQLite: take the lock first.
 */
export interface Locks {
  /** Runs `fn` while holding `name`, waiting (up to `waitMs`) for another holder to finish. */
  withLock<T>(name: string, fn: (signal: AbortSignal) => Promise<T>, opts?: WithLockOptions): Promise<T>;
  /** Takes `name` without waiting and keeps it (renewed) until `release()`; null when held elsewhere. */
  tryLeader(name: string): Promise<Leadership | null>;
  /** Releases every lock this instance holds and closes its connection. */
  close(): Promise<void>;
}

export interface WithLockOptions {
  /** Give up waiting after this long (LockTimeoutError). Default 60 s. */
  waitMs?: number;
}

export interface Leadership {
  readonly name: string;
  /** Aborted when the lock was lost (expired or its connection closed) or released. */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

export class LockTimeoutError extends Error {
  constructor(name: string) {
    super(`lock ${name} is held elsewhere`);
  }
}

export interface LockTuning {
  /** SQLite: how long a claim lasts without renewal. Default 30 s. */
  ttlMs?: number;
  /** SQLite: how often a holder renews. Default ttl / 3. */
  renewMs?: number;
}

/**
 * The apply pipeline's per-target serialisation: applies of one target (`mail`, `dns`,
 * `dns:example.com`…) run one at a time across every process; different targets side by side.
 */
export function targetLock(locks: Locks) {
  return <T>(target: string, fn: () => Promise<T>): Promise<T> =>
    locks.withLock(`apply:${target}`, () => fn(), { waitMs: 5 * 60_000 });
}

/** A label for this process: host, pid and a random part (a restarted pid is another owner). */
export function processOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function createLocks(database: DatabaseHandle, tuning: LockTuning = {}): Locks {
  return database.dialect === 'postgres'
    ? postgresLocks(database.postgresUrl!)
    : sqliteLocks(database.sqlitePath!, tuning);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The Locks of either dialect from its two parts: `attempt` takes `name` once (what holds it, or
 * null when it is held elsewhere), `keep` watches a held lock and answers its release.
 */
function lockSet<H>(
  attempt: (name: string) => Promise<H | null> | H | null,
  keep: (name: string, held: H, lost: AbortController) => () => Promise<void>,
  closeConnection: () => Promise<void> | void,
): Locks {
  const releases = new Set<() => Promise<void>>();
  return {
    async withLock(name, fn, opts = {}) {
      const deadline = Date.now() + (opts.waitMs ?? 60_000);
      let pause = 2;
      let got: H | null;
      while ((got = await attempt(name)) === null) {
        if (Date.now() > deadline) throw new LockTimeoutError(name);
        await sleep(pause);
        pause = Math.min(pause * 2, 50);
      }
      const lost = new AbortController();
      const release = keep(name, got, lost);
      releases.add(release);
      try {
        return await fn(lost.signal);
      } finally {
        releases.delete(release);
        await release();
      }
    },
    async tryLeader(name) {
      const got = await attempt(name);
      if (got === null) return null;
      const lost = new AbortController();
      const stop = keep(name, got, lost);
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        releases.delete(release);
        await stop();
      };
      releases.add(release);
      return { name, signal: lost.signal, release };
    },
    async close() {
      await Promise.all([...releases].map((r) => r()));
      await closeConnection();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// SQLite

function sqliteLocks(file: string, tuning: LockTuning): Locks {
  const ttl = tuning.ttlMs ?? 30_000;
  const renewEvery = tuning.renewMs ?? Math.max(50, Math.floor(ttl / 3));
  let conn: SQLite.Database | null = null;
  const open = () => {
    if (!conn) {
      conn = new SQLite(file);
      conn.pragma('busy_timeout = 0');
    }
    return conn;
  };

  const isBusy = (err: unknown) =>
    err instanceof Error &&
    'code' in err &&
    String((err as { code: unknown }).code).startsWith('SQLITE_BUSY');

  /** One attempt: true when `owner` now holds `name`; null when the database was busy. */
  const claim = (name: string, owner: string): boolean | null => {
    const now = Date.now();
    try {
      const r = open()
        .prepare(
          `INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?)
           ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
           WHERE locks.expires_at < ? OR locks.owner = excluded.owner`,
        )
        .run(name, owner, now + ttl, now);
      return r.changes === 1;
    } catch (err) {
      if (isBusy(err)) return null;
      throw err;
    }
  };
  const drop = (name: string, owner: string): boolean => {
    try {
      open().prepare('DELETE FROM locks WHERE name = ? AND owner = ?').run(name, owner);
      return true;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    }
  };

  /** Keeps a claim alive; aborts `lost` if it expires or another owner has it. */
  const keep = (name: string, owner: string, lost: AbortController) => {
    let validUntil = Date.now() + ttl;
    const timer = setInterval(() => {
      const ok = claim(name, owner);
      if (ok === true) validUntil = Date.now() + ttl;
      else if (ok === false || Date.now() > validUntil - renewEvery) {
        clearInterval(timer);
        lost.abort(new Error(`lock ${name} was lost`));
      }
    }, renewEvery);
    timer.unref();
    return async () => {
      clearInterval(timer);
      // A busy database must not leave the row behind until it expires: retry briefly.
      for (let i = 0; i < 200 && !drop(name, owner); i++) await sleep(10);
      if (!lost.signal.aborted) lost.abort(new Error(`lock ${name} was released`));
    };
  };

  // The owner label is the held lock: a claim made with it is renewed and dropped with it.
  const attempt = (name: string) => {
    const owner = processOwner();
    return claim(name, owner) === true ? owner : null;
  };
  return lockSet(attempt, keep, () => {
    conn?.close();
    conn = null;
  });
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function postgresLocks(url: string): Locks {
  // Each held lock keeps its own connection: advisory locks belong to the session.
  const pool = new pg.Pool({ connectionString: url, max: 32, idleTimeoutMillis: 10_000 });
  pool.on('error', () => {
    /* a dropped idle connection: the next checkout opens another */
  });
  const KEY = `pg_try_advisory_lock(hashtext('mailroom'), hashtext($1))`;

  const attempt = async (name: string): Promise<pg.PoolClient | null> => {
    const client = await pool.connect();
    try {
      const r = await client.query<{ ok: boolean }>(`SELECT ${KEY} AS ok`, [name]);
      if (r.rows[0]?.ok) return client;
    } catch (err) {
      client.release(true);
      throw err;
    }
    client.release();
    return null;
  };

  /** Watches the connection; releases the lock (and the connection) on demand. */
  const keep = (name: string, client: pg.PoolClient, lost: AbortController) => {
    let broken = false;
    const onError = () => {
      broken = true;
      lost.abort(new Error(`lock ${name} was lost`));
    };
    client.on('error', onError);
    const timer = setInterval(() => {
      client.query('SELECT 1').catch(onError);
    }, 10_000);
    timer.unref();
    return async () => {
      clearInterval(timer);
      client.off('error', onError);
      try {
        if (!broken)
          await client.query(`SELECT pg_advisory_unlock(hashtext('mailroom'), hashtext($1))`, [name]);
        client.release();
      } catch {
        client.release(true); // the session ends, and its locks with it
      }
      if (!lost.signal.aborted) lost.abort(new Error(`lock ${name} was released`));
    };
  };

  return lockSet(attempt, keep, () => pool.end());
}

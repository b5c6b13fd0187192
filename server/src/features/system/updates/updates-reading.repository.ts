import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

/** The persisted updates reading as stored (row id 1 of `updates_reading`). */
export interface StoredReading {
  body: string | null;
  version: string;
  readAt: number | null;
  refreshStartedAt: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function readStoredReading(db: Db): Promise<StoredReading | null> {
  const row = await db
    .selectFrom('updates_reading')
    .select(['body', 'version', 'read_at', 'refresh_started_at'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    body: row.body,
    version: row.version,
    readAt: num(row.read_at),
    refreshStartedAt: num(row.refresh_started_at),
  };
}

/**
 * Takes the refresh lease when nobody holds it (or its holder has not finished within `leaseMs`:
 * a process that died): one process runs apt at a time, whatever the number of workers.
 */
export async function claimRefresh(db: Db, now: number, leaseMs: number): Promise<boolean> {
  const r = await db
    .updateTable('updates_reading')
    .set({ refresh_started_at: now })
    .where('id', '=', 1)
    .where((eb) =>
      eb.or([eb('refresh_started_at', 'is', null), eb('refresh_started_at', '<', now - leaseMs)]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Stores a reading begun at `startedAt`, unless a reading begun later is already stored (an older,
 * slower refresh never replaces a newer one), and gives the lease back.
 */
export async function saveReading(
  db: Db,
  reading: { body: string; version: string; startedAt: number },
): Promise<void> {
  await db
    .updateTable('updates_reading')
    .set({ body: reading.body, version: reading.version, read_at: reading.startedAt })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('read_at', 'is', null), eb('read_at', '<=', reading.startedAt)]))
    .execute();
  await releaseRefresh(db, reading.startedAt);
}

/** Gives the lease back (only the lease taken at `startedAt`). */
export async function releaseRefresh(db: Db, startedAt: number): Promise<void> {
  await db
    .updateTable('updates_reading')
    .set({ refresh_started_at: null })
    .where('id', '=', 1)
    .where('refresh_started_at', '=', startedAt)
    .execute();
}

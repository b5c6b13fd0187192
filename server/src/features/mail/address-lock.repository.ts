import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The SQL of the mail writes' advisory locks (PostgreSQL; SQLite runs one writer at a time). The
 * order they are taken in is told in mail-write-locks.ts.
 */

type Db = Kysely<Database>;

/** The advisory lock classes (the first key of the two-key form). */
const ADDRESS = 0x6d61696c; // 'mail'
const GRAPH = 0x67726170; // 'grap'

/** Locks these addresses until the transaction ends (sorted, so two writers never cross). */
export async function lockAddresses(db: Db, addresses: Iterable<string>): Promise<void> {
  if (!isPostgres(db as never)) return;
  for (const a of [...new Set(addresses)].sort())
    await sql`select pg_advisory_xact_lock(${ADDRESS}, hashtext(${a}))`.execute(db);
}

/**
 * Locks the alias graph until the transaction ends: a change whose destinations reach other
 * aliases could close a loop with another such change that neither saw (a→b beside b→…→a).
 */
export async function lockAliasGraph(db: Db): Promise<void> {
  if (!isPostgres(db as never)) return;
  await sql`select pg_advisory_xact_lock(${GRAPH}, 0)`.execute(db);
}

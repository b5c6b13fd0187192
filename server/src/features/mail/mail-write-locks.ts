import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/*
 * The locks of mail writes on PostgreSQL (SQLite runs one writer at a time and needs none).
 *
 * Every write takes its locks in one order, so none waits on another in a circle:
 *   1. the alias graph's lock (only an alias change that may close a loop, and imports);
 *   2. its addresses (transaction advisory locks, in sorted order): the mailbox/alias clash of one
 *      address is checked by one transaction at a time;
 *   3. its domain rows: KEY SHARE for a single change (the row cannot go meanwhile, yet other
 *      writes of the same domain run side by side), FOR UPDATE for imports, bulk removals and a
 *      domain's removal (which take no address locks);
 *   4. the lists (the list_versions row each table's trigger raises);
 *   5. the domain counters, last, so a domain row's write lock is held only from there to commit.
 * Before this order, every write of a domain took its row's write lock first and held it for the
 * whole transaction: the 50-client load, all writing one domain, ran its writes one at a time.
 */

/** The advisory lock classes (the first key of the two-key form). */
const ADDRESS = 0x6d61696c; // 'mail'
const GRAPH = 0x67726170; // 'grap'

/**
 * Holds a domain's row in KEY SHARE mode until the transaction ends; answers whether it exists.
 * On SQLite it only reads.
 */
export async function holdDomain(db: Db, domain: string): Promise<boolean> {
  const q = db.selectFrom('mail_domains').select('id').where('domain', '=', domain);
  return (await (isPostgres(db as never) ? q.forKeyShare() : q).executeTakeFirst()) !== undefined;
}

/** Holds these domains' rows exclusively (imports, a domain's removal), in one order. */
export async function lockDomainRows(db: Db, domains: Iterable<string>): Promise<void> {
  if (!isPostgres(db as never)) return;
  const sorted = [...new Set(domains)].sort();
  for (let i = 0; i < sorted.length; i += 500)
    await db
      .selectFrom('mail_domains')
      .select('id')
      .where('domain', 'in', sorted.slice(i, i + 500))
      .orderBy('domain')
      .forUpdate()
      .execute();
}

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

/**
 * Whether every one of `destinations` is a mailbox. Such an alias ends at mailboxes, which cannot
 * turn into aliases while their address locks are held, so it cannot close a loop and needs no
 * graph lock.
 */
export async function allMailboxes(db: Db, destinations: string[]): Promise<boolean> {
  const wanted = [...new Set(destinations)];
  if (!wanted.length) return true;
  const rows = await db.selectFrom('mailboxes').select('email').where('email', 'in', wanted).execute();
  return rows.length === wanted.length;
}

/** The transaction must start again with the graph lock (a destination stopped being a mailbox). */
export class NeedsGraphLock extends Error {}

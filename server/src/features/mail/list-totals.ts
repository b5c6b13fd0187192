import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Rows of a mail list with one status (an indexed count). */
export async function totalWithStatus(
  db: Db,
  table: 'mailboxes' | 'mail_aliases',
  status: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The unfiltered total from the domains' counters (kept in the same transactions as the rows),
 * so it never scans the list; knowing it first lets a deep page be read from the nearer end.
 */
export async function totalFromDomainCounters(
  db: Db,
  counter: 'mailbox_count' | 'alias_count',
): Promise<number> {
  const row = await db
    .selectFrom('mail_domains')
    .select((eb) => eb.fn.sum<number>(counter).as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

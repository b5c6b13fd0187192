import { TOTAL_CAP } from '@mailroom/contract/common';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * The rows of each of some disjoint selects, each counted no further than TOTAL_CAP + 1 (one
 * statement), so a search that matches most of a large list costs a bounded count.
 */
export async function cappedCounts(db: Db, branches: RawBuilder<unknown>[]): Promise<number[]> {
  const counts = branches.map(
    (b, i) => sql`(select count(*) from (${b} limit ${TOTAL_CAP + 1}) x) as ${sql.raw(`c${i}`)}`,
  );
  const row = (await sql<Record<string, number>>`select ${sql.join(counts)}`.execute(db)).rows[0] ?? {};
  return branches.map((_, i) => Number(row[`c${i}`] ?? 0));
}

/** The total of disjoint capped counts: over the cap, the cap. */
export function cappedSum(counts: number[]): { total: number; capped: boolean } {
  const n = counts.reduce((a, b) => a + b, 0);
  return n > TOTAL_CAP ? { total: TOTAL_CAP, capped: true } : { total: n, capped: false };
}

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

/** How many rows a mail table holds (the metrics' exact counts). */
export async function countRows(
  db: Db,
  table: 'mail_domains' | 'mailboxes' | 'mail_aliases',
): Promise<number> {
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

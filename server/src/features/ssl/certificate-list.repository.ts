import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { KeyValue } from '../../http/cursor.ts';

/** The SQL of the certificate list: filtered pages and counts over the stored columns of `ssl_certificates`. */

type Db = Kysely<Database>;
const DAY = 86_400_000;

export interface ListFilter {
  q?: string | undefined;
  status?: 'valid' | 'expiring' | 'expired' | undefined;
  issuer?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  cursor?: string | undefined;
  sort?: string | undefined;
}

/** The list's total order: the sort column, then the id. */
export function listOrder(column: 'not_after' | 'domain', desc: boolean): KeysetOrder {
  return { keys: [sql.ref(column), sql.ref('id')], desc };
}

/** Only the stored columns the list shows: no PEM, no key, no parsing at read time. */
const LIST_COLUMNS = [
  'id',
  'domain',
  'names',
  'issuer',
  'valid_from',
  'valid_to',
  'not_after',
  'type',
  'key_size',
  'fingerprint',
  'key_algorithm',
  'signature_algorithm',
  'serial',
  'source',
  'auto_renew',
] as const;

/** The filtered certificates (status from the stored notAfter against now and the threshold). */
function filtered(db: Db, f: ListFilter, threshold: number, now: number) {
  let q = db.selectFrom('ssl_certificates');
  const soon = now + threshold * DAY;
  if (f.status === 'expired') q = q.where('not_after', '<=', now);
  if (f.status === 'expiring') q = q.where('not_after', '>', now).where('not_after', '<=', soon);
  if (f.status === 'valid') q = q.where('not_after', '>', soon);
  if (f.issuer) q = q.where(sql<boolean>`lower(issuer) = ${f.issuer.toLowerCase()}`);
  const term = f.q?.trim().toLowerCase();
  if (term) {
    const st = (['valid', 'expiring', 'expired'] as const).find((s) => s.startsWith(term));
    q = q.where((eb) => {
      const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const ors: Expression<SqlBool>[] = [sql<SqlBool>`search like ${like} escape '\\'`];
      // Search by status too (§2): "exp" finds expiring and expired ones.
      if (st === 'expired' || term === 'exp') ors.push(eb('not_after', '<=', now));
      if (st === 'expiring' || term === 'exp')
        ors.push(eb.and([eb('not_after', '>', now), eb('not_after', '<=', soon)]));
      if (st === 'valid') ors.push(eb('not_after', '>', soon));
      return eb.or(ors);
    });
  }
  return q;
}

/** How many certificates the filter keeps. */
export async function countFiltered(db: Db, f: ListFilter, threshold: number, now: number): Promise<number> {
  const count = await filtered(db, f, threshold, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** When the next certificate changes status (expiring → expired, valid → expiring): two index probes. */
export async function statusHorizon(db: Db, threshold: number, now: number): Promise<number> {
  const t = threshold * DAY;
  const next = async (after: number) =>
    (
      await db
        .selectFrom('ssl_certificates')
        .select('not_after')
        .where('not_after', '>', after)
        .orderBy('not_after')
        .limit(1)
        .executeTakeFirst()
    )?.not_after;
  const [a, b] = await Promise.all([next(now), next(now + t)]);
  return Math.min(a === undefined ? Infinity : Number(a), b === undefined ? Infinity : Number(b) - t);
}

/**
 * Up to `limit` rows of the filtered list in `order` (reversed for a page before a position), after
 * the cursor's keys when there is one, else from `offset`.
 */
export async function listPageRows(
  db: Db,
  f: ListFilter,
  threshold: number,
  now: number,
  page: { order: KeysetOrder; keys?: KeyValue[] | undefined; before: boolean; limit: number; offset: number },
) {
  let q = filtered(db, f, threshold, now).select([...LIST_COLUMNS]);
  if (page.keys) q = q.where(keysetAfter(page.order, page.keys, page.before) as RawBuilder<boolean>);
  return q.orderBy(keysetOrderBy(page.order, page.before)).limit(page.limit).offset(page.offset).execute();
}

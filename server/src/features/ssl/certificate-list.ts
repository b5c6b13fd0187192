import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../db/keyset.ts';
import {
  type CursorPage,
  decodeCursor,
  type KeyValue,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../http/cursor.ts';
import { fieldError } from '../../http/errors.ts';

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

/** Sort fields of the list (`-` for descending): each pages by key on (column, id). */
const SORTS = { validTo: 'not_after', domain: 'domain' } as const;
const DEFAULT_SORT = 'validTo';

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

/**
 * Totals of the list per filter, kept until the certificates (or what the list shows beside them)
 * change — the `ssl_certificates` change counter that the database's triggers raise, so another
 * instance's change is seen too — or until time moves a certificate across a status boundary
 * (the next notAfter after now, or after now + threshold). A page then costs no count at all.
 */
export class ListCounts {
  private readonly entries = new Map<string, { n: number; until: number }>();

  async total(db: Db, f: ListFilter, threshold: number, now: number): Promise<number> {
    const versions = await db
      .selectFrom('list_versions')
      .select(['name', 'version'])
      .where('name', 'in', ['epoch', 'ssl_certificates'])
      .execute();
    const state = versions.map((v) => `${v.name}=${Number(v.version)}`).join(',');
    const key = JSON.stringify([state, threshold, f.q?.trim().toLowerCase() ?? '', f.status, f.issuer]);
    const hit = this.entries.get(key);
    if (hit && now < hit.until) return hit.n;
    const [count, until] = await Promise.all([
      filtered(db, f, threshold, now)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      f.status || f.q?.trim() ? statusHorizon(db, threshold, now) : Infinity,
    ]);
    if (this.entries.size >= 256) this.entries.clear();
    this.entries.set(key, { n: Number(count.n), until });
    return Number(count.n);
  }
}

/** When the next certificate changes status (expiring → expired, valid → expiring): two index probes. */
async function statusHorizon(db: Db, threshold: number, now: number): Promise<number> {
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

export type ListRow = Awaited<ReturnType<typeof listRows>>['items'][number];

/**
 * One page of the list: pure SQL over stored columns, sorted by expiry (soonest first) or domain,
 * paged by offset or by a cursor from an earlier page (keyset: any page costs what the first does).
 */
export async function listRows(
  db: Db,
  f: ListFilter,
  threshold: number,
  counts: ListCounts,
  now = Date.now(),
) {
  refuseCursorWithOffset(f);
  const sort = f.sort ?? DEFAULT_SORT;
  const name = sort.replace(/^-/, '');
  if (!Object.hasOwn(SORTS, name))
    throw fieldError(
      'sort',
      `sort must be one of ${Object.keys(SORTS).join(', ')} (optionally prefixed with -)`,
    );
  const column = SORTS[name as keyof typeof SORTS];
  const order: KeysetOrder = { keys: [sql.ref(column), sql.ref('id')], desc: sort.startsWith('-') };
  const kinds = [column === 'domain' ? 'string' : 'number', 'number'] as const;
  const cursor = f.cursor === undefined ? undefined : decodeCursor(f.cursor, sort, kinds);
  const before = cursor?.dir === 'before';
  const limit = f.limit ?? 100;
  const offset = cursor ? 0 : (f.offset ?? 0);
  let page = filtered(db, f, threshold, now).select([...LIST_COLUMNS]);
  if (cursor) page = page.where(keysetAfter(order, cursor.keys, before) as RawBuilder<boolean>);
  const [read, total] = await Promise.all([
    page
      .orderBy(keysetOrderBy(order, before))
      .limit(limit + 1)
      .offset(offset)
      .execute(),
    counts.total(db, f, threshold, now),
  ]);
  let rows = read.slice(0, limit);
  let has = { next: read.length > limit, prev: offset > 0 };
  if (cursor) {
    const p = keysetPage(read, limit, before);
    rows = p.rows;
    has = before ? { next: true, prev: p.more } : { next: p.more, prev: true };
  }
  const keyOf = (r: (typeof rows)[number]): KeyValue[] => [
    column === 'domain' ? r.domain : Number(r.not_after),
    Number(r.id),
  ];
  return { items: rows, total, ...neighbourCursors(sort, rows.map(keyOf), has) } satisfies CursorPage<
    (typeof rows)[number]
  >;
}

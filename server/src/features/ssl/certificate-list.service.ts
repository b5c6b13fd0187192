import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { keysetPage } from '../../db/keyset.ts';
import {
  type CursorPage,
  decodeCursor,
  type KeyValue,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../http/cursor.ts';
import { fieldError } from '../../http/errors.ts';
import { listVersions } from '../../http/list-version.repository.ts';
import {
  countFiltered,
  type ListFilter,
  listOrder,
  listPageRows,
  statusHorizon,
} from './certificate-list.repository.ts';

export type { ListFilter };

type Db = Kysely<Database>;

/** Sort fields of the list (`-` for descending): each pages by key on (column, id). */
const SORTS = { validTo: 'not_after', domain: 'domain' } as const;
const DEFAULT_SORT = 'validTo';

/**
 * Totals of the list per filter, kept until the certificates (or what the list shows beside them)
 * change — the `ssl_certificates` change counter that the database's triggers raise, so another
 * instance's change is seen too — or until time moves a certificate across a status boundary
 * (the next notAfter after now, or after now + threshold). A page then costs no count at all.
 */
export class ListCounts {
  private readonly entries = new Map<string, { n: number; until: number }>();

  async total(db: Db, f: ListFilter, threshold: number, now: number): Promise<number> {
    const versions = await listVersions(db, ['epoch', 'ssl_certificates']);
    const state = versions.map((v) => `${v.name}=${Number(v.version)}`).join(',');
    const key = JSON.stringify([state, threshold, f.q?.trim().toLowerCase() ?? '', f.status, f.issuer]);
    const hit = this.entries.get(key);
    if (hit && now < hit.until) return hit.n;
    const [n, until] = await Promise.all([
      countFiltered(db, f, threshold, now),
      f.status || f.q?.trim() ? statusHorizon(db, threshold, now) : Infinity,
    ]);
    if (this.entries.size >= 256) this.entries.clear();
    this.entries.set(key, { n, until });
    return n;
  }
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
  const order = listOrder(column, sort.startsWith('-'));
  const kinds = [column === 'domain' ? 'string' : 'number', 'number'] as const;
  const cursor = f.cursor === undefined ? undefined : decodeCursor(f.cursor, sort, kinds);
  const before = cursor?.dir === 'before';
  const limit = f.limit ?? 100;
  const offset = cursor ? 0 : (f.offset ?? 0);
  const [read, total] = await Promise.all([
    listPageRows(db, f, threshold, now, { order, keys: cursor?.keys, before, limit: limit + 1, offset }),
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

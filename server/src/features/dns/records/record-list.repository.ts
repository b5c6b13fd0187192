import type { DnsRecord, RecordListQuery } from '@mailroom/contract/dns';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../../db/keyset.ts';
import type { Database } from '../../../db/schema.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';
import { EXPORT_BATCH } from '../../../http/stream-export.ts';
import { type RecordRow, toRecord } from './record-rows.mapper.ts';

/**
 * The SQL that lists `dns_records`: a page (totals from the kept counts when no row filter
 * applies) and the export's batches.
 */

type Db = Kysely<Database>;

const SORTS: Record<string, 'zone' | 'qname' | 'rtype' | 'value' | 'ttl' | 'priority' | 'id'> = {
  zone: 'zone',
  name: 'qname',
  qname: 'qname',
  type: 'rtype',
  rtype: 'rtype',
  value: 'value',
  ttl: 'ttl',
  priority: 'priority',
  id: 'id',
};

/** `%`, `_` and `\` are literal in a search. */
export const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type RecordColumn = 'zone' | 'qname' | 'rtype' | 'value' | 'ttl' | 'priority' | 'id';
const NUMERIC_COLUMNS: ReadonlySet<RecordColumn> = new Set(['ttl', 'priority', 'id']);

/**
 * The total order of a sort: the sort column then the id, or zone, name, type, id by default.
 * A missing priority sorts as -1 (first) on both databases, so a cursor can carry it.
 */
function recordOrder(sort: string): { columns: RecordColumn[]; keys: KeysetOrder } {
  const name = sort.replace(/^-/, '');
  const field = Object.hasOwn(SORTS, name) ? SORTS[name] : undefined;
  const columns: RecordColumn[] = field
    ? field === 'id'
      ? ['id']
      : [field, 'id']
    : ['zone', 'qname', 'rtype', 'id'];
  const expr = (c: RecordColumn) => (c === 'priority' ? sql`coalesce(priority, -1)` : sql.ref(c));
  return { columns, keys: { keys: columns.map(expr), desc: !!field && sort.startsWith('-') } };
}

/** One page of records and the total matching; counts come from the zones when no row filter applies. */
export async function listRecords(
  db: Db,
  q: Omit<RecordListQuery, 'limit' | 'offset'> & { limit?: number | undefined; offset?: number | undefined },
  /** A domain administrator's domains (null: every zone's records). */
  scope: readonly string[] | null = null,
): Promise<CursorPage<DnsRecord>> {
  refuseCursorWithOffset(q);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  const zone = q.zone?.trim().toLowerCase() || undefined;
  const search = q.q?.trim() || undefined;
  let base = db.selectFrom('dns_records');
  if (zone) base = base.where('zone', '=', zone);
  if (scope !== null) base = base.where('zone', 'in', scope);
  if (q.type) base = base.where('rtype', '=', q.type);
  if (search) {
    const pat = likePattern(search);
    base = base.where(
      sql<boolean>`(lower(qname) like ${pat} escape '\\' or lower(value) like ${pat} escape '\\' or lower(rtype) like ${pat} escape '\\'${search === '@' ? sql` or qname = ''` : sql``})`,
    );
  }
  const sort = q.sort ?? '';
  const { columns, keys: order } = recordOrder(sort);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const cursor =
    q.cursor === undefined
      ? undefined
      : decodeCursor(
          q.cursor,
          sort,
          columns.map((c) => (NUMERIC_COLUMNS.has(c) ? 'number' : 'string')),
        );
  const before = cursor?.dir === 'before';
  let page = base.selectAll();
  if (cursor) page = page.where(keysetAfter(order, cursor.keys, before) as RawBuilder<boolean>);
  const rowsP = page
    .orderBy(keysetOrderBy(order, before))
    // One row more than the page tells whether another page follows.
    .limit(limit + 1)
    .offset(cursor ? 0 : offset)
    .execute();
  let totalP: Promise<number>;
  if (!search && q.type) {
    let cq = db
      .selectFrom('dns_record_counts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('rtype', '=', q.type);
    if (zone) cq = cq.where('zone', '=', zone);
    if (scope !== null) cq = cq.where('zone', 'in', scope);
    totalP = cq.executeTakeFirstOrThrow().then((r) => Number(r.n));
  } else if (!search) {
    let zq = db
      .selectFrom('dns_zones')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('record_count'), eb.lit(0)).as('n'));
    if (zone) zq = zq.where('domain', '=', zone);
    if (scope !== null) zq = zq.where('domain', 'in', scope);
    totalP = zq.executeTakeFirstOrThrow().then((r) => Number(r.n));
  } else {
    totalP = base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }
  const [read, total] = await Promise.all([rowsP, totalP]);
  let rows = read.slice(0, limit);
  let has = { next: read.length > limit, prev: offset > 0 };
  if (cursor) {
    const p = keysetPage(read, limit, before);
    rows = p.rows;
    has = before ? { next: true, prev: p.more } : { next: p.more, prev: true };
  }
  const keyOf = (r: RecordRow): KeyValue[] =>
    columns.map((c) => (c === 'priority' ? (r.priority ?? -1) : r[c]));
  return { items: rows.map(toRecord), total, ...neighbourCursors(sort, rows.map(keyOf), has) };
}

/**
 * Every record in (zone, name, type, id) order, read by key in batches on the
 * dns_records_zone_name_idx index; no connection is held between batches.
 */
export async function* recordBatches(
  db: Db,
  size = EXPORT_BATCH,
  /** A domain administrator's domains (null: every zone). */
  scope: readonly string[] | null = null,
): AsyncGenerator<DnsRecord[]> {
  if (scope !== null && !scope.length) return;
  let after: [string, string, string, number] | null = null;
  for (;;) {
    let q = db
      .selectFrom('dns_records')
      .selectAll()
      .orderBy('zone')
      .orderBy('qname')
      .orderBy('rtype')
      .orderBy('id')
      .limit(size);
    if (scope !== null) q = q.where('zone', 'in', scope);
    if (after !== null) {
      const [z, n, t, id] = after;
      q = q.where(sql<boolean>`(zone, qname, rtype, id) > (${z}, ${n}, ${t}, ${id})`);
    }
    const rows = await q.execute();
    if (rows.length) yield rows.map(toRecord);
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = [last.zone, last.qname, last.rtype, last.id];
  }
}

import type { Zone, ZoneStatus } from '@mailroom/contract/dns';
import { type Insertable, type Kysely, type RawBuilder, sql, type Updateable } from 'kysely';
import type { DnsZoneTable } from '../../../db/dns.tables.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../../db/keyset.ts';
import type { Database } from '../../../db/schema.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';
import { type ZoneRow, toZone } from './zone-rows.mapper.ts';

/** The SQL of `dns_zones` (row -> contract mapping in zone-rows.ts). */

type Db = Kysely<Database>;

export async function findZone(db: Db, domain: string): Promise<ZoneRow | undefined> {
  return db.selectFrom('dns_zones').selectAll().where('domain', '=', domain).executeTakeFirst();
}

export async function zoneExists(db: Db, domain: string): Promise<boolean> {
  return !!(await db.selectFrom('dns_zones').select('id').where('domain', '=', domain).executeTakeFirst());
}

export async function insertZone(db: Db, values: Insertable<DnsZoneTable>): Promise<void> {
  await db.insertInto('dns_zones').values(values).execute();
}

export async function updateZoneRow(db: Db, id: number, set: Updateable<DnsZoneTable>): Promise<void> {
  await db.updateTable('dns_zones').set(set).where('id', '=', id).execute();
}

export async function deleteZoneRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('dns_zones').where('id', '=', id).execute();
}

/** The rows of these zones (only the primary ones with `primaryOnly`). */
export async function zoneRowsIn(db: Db, domains: string[], primaryOnly: boolean): Promise<ZoneRow[]> {
  let q = db.selectFrom('dns_zones').selectAll().where('domain', 'in', domains);
  if (primaryOnly) q = q.where('zone_type', '=', 'primary');
  return q.execute();
}

/** The names of the primary zones (among `domains` when given). */
export async function primaryZoneNames(db: Db, domains?: string[]): Promise<string[]> {
  let q = db.selectFrom('dns_zones').select('domain').where('zone_type', '=', 'primary');
  if (domains) q = q.where('domain', 'in', domains);
  return (await q.execute()).map((z) => z.domain);
}

/** Every zone's name, type and record count (small beside the records). */
export async function zoneSummaries(db: Db) {
  return db.selectFrom('dns_zones').select(['domain', 'zone_type', 'record_count']).execute();
}

/** What zones.conf lists: every zone by name, with its type and primaries. */
export async function zonesForConf(db: Db) {
  return db.selectFrom('dns_zones').select(['domain', 'zone_type', 'primaries']).orderBy('domain').execute();
}

/** What the derived mail records of a domain need of its zone (none: no zone). */
export async function zoneServing(db: Db, domain: string) {
  return db
    .selectFrom('dns_zones')
    .select(['id', 'default_ttl', 'zone_type'])
    .where('domain', '=', domain)
    .executeTakeFirst();
}

/** Secondary and stub zones take this status (they are proved with zones.conf). */
export async function markSecondaryZones(db: Db, status: string): Promise<void> {
  await db
    .updateTable('dns_zones')
    .set({ status })
    .where('zone_type', '!=', 'primary')
    .where('status', '!=', status)
    .execute();
}

export async function countZones(db: Db): Promise<number> {
  const r = await db
    .selectFrom('dns_zones')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The dashboard's totals: zones, and records from the per-zone counts (never a row scan). */
export async function zoneTotals(db: Db): Promise<{ zones: number; records: number }> {
  const r = await db
    .selectFrom('dns_zones')
    .select((eb) => [
      eb.fn.countAll<number>().as('zones'),
      eb.fn.coalesce(eb.fn.sum<number>('record_count'), eb.lit(0)).as('records'),
    ])
    .executeTakeFirstOrThrow();
  return { zones: Number(r.zones), records: Number(r.records) };
}

export async function newestZones(db: Db, limit: number): Promise<ZoneRow[]> {
  return db.selectFrom('dns_zones').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

// Many zones change in one statement (a JSON parameter unpacked by the database), so an import
// touching thousands of zones does not pay a round trip per zone.
const CHUNK = 5000;

export interface ZoneRendered {
  id: number;
  serial: number;
  hash: string;
  changed: boolean;
}

export async function markZonesRendered(
  db: Kysely<Database>,
  dialect: string,
  rows: ZoneRendered[],
  status: string,
  at: string,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const json = JSON.stringify(
      rows.slice(i, i + CHUNK).map((r) => [r.id, r.serial, r.hash, r.changed ? 1 : 0]),
    );
    if (dialect === 'postgres') {
      await sql`update dns_zones as z set serial = (e->>1)::bigint, rendered_hash = e->>2, status = ${status},
          updated_at = case when (e->>3)::int = 1 then ${at} else z.updated_at end
        from json_array_elements(${json}::json) as e where z.id = (e->>0)::int`.execute(db);
    } else {
      await sql`update dns_zones set serial = j.value->>1, rendered_hash = j.value->>2, status = ${status},
          updated_at = case when j.value->>3 = 1 then ${at} else updated_at end
        from json_each(${json}) as j where dns_zones.id = j.value->>0`.execute(db);
    }
  }
}

const ZONE_SORTS: Record<string, 'domain' | 'record_count' | 'status' | 'updated_at' | 'id'> = {
  domain: 'domain',
  records: 'record_count',
  status: 'status',
  lastUpdated: 'updated_at',
  created: 'id',
};

const NUMERIC_ZONE_COLUMNS: ReadonlySet<string> = new Set(['record_count', 'id']);

/**
 * Zones newest first (a new zone shows at the top), searched by domain. Paged by offset or, with
 * a `cursor` from an earlier page's headers, by key (the sort column then the id), like records.
 */
export async function listZones(
  db: Db,
  q: {
    q?: string | undefined;
    status?: ZoneStatus | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
    cursor?: string | undefined;
    sort?: string | undefined;
  },
  /** A domain administrator's domains (null: every zone). */
  scope: readonly string[] | null = null,
): Promise<CursorPage<Zone>> {
  refuseCursorWithOffset(q);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  let base = db.selectFrom('dns_zones');
  if (scope !== null) base = base.where('domain', 'in', scope);
  const search = q.q?.trim().toLowerCase();
  if (search) {
    const pat = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where(sql<boolean>`lower(domain) like ${pat} escape '\\'`);
  }
  if (q.status) base = base.where('status', '=', q.status);
  const sort = q.sort ?? '-created';
  const key = sort.replace(/^-/, '');
  // Own keys only: `__proto__`, `constructor` or `toString` are no sort field.
  const field = (Object.hasOwn(ZONE_SORTS, key) ? ZONE_SORTS[key] : undefined) ?? 'id';
  const columns = field === 'id' ? (['id'] as const) : ([field, 'id'] as const);
  const order: KeysetOrder = { keys: columns.map((c) => sql.ref(c)), desc: sort.startsWith('-') };
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const cursor =
    q.cursor === undefined
      ? undefined
      : decodeCursor(
          q.cursor,
          sort,
          columns.map((c) => (NUMERIC_ZONE_COLUMNS.has(c) ? 'number' : 'string')),
        );
  const before = cursor?.dir === 'before';
  let page = base.selectAll();
  if (cursor) page = page.where(keysetAfter(order, cursor.keys, before) as RawBuilder<boolean>);
  const [read, count] = await Promise.all([
    page
      .orderBy(keysetOrderBy(order, before))
      .limit(limit + 1)
      .offset(cursor ? 0 : offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  let rows = read.slice(0, limit);
  let has = { next: read.length > limit, prev: offset > 0 };
  if (cursor) {
    const p = keysetPage(read, limit, before);
    rows = p.rows;
    has = before ? { next: true, prev: p.more } : { next: p.more, prev: true };
  }
  const keyOf = (r: ZoneRow): KeyValue[] => columns.map((c) => (c === 'record_count' ? Number(r[c]) : r[c]));
  return {
    items: rows.map(toZone),
    total: Number(count.n),
    ...neighbourCursors(sort, rows.map(keyOf), has),
  };
}

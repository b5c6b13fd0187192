import {
  type DnsRecord,
  type DnsRecordType,
  type RecordListQuery,
  dnsMessages,
} from '@mailroom/contract/dns';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../db/keyset.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../http/cursor.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { toRelativeName } from './dns-names.ts';
import type { DnsContext } from './dns-context.ts';
import { runDnsAction } from './dns-publish.ts';
import { loadSettings } from './dns-settings.service.ts';
import { normalizeValue, normalizeRecord, conflictAtName, type RecordFields } from './record-rules.ts';
import { type RecordRow, toRecord } from './record-rows.ts';
import { applyCountDeltas, CountDeltas } from './zone-bulk-update.ts';
import { requireZone } from './zone.service.ts';

type Db = Kysely<Database>;

export interface RecordInputFields {
  qname: string;
  rtype: DnsRecordType;
  value: string;
  ttl: number;
  priority?: number | null | undefined;
  weight?: number | null | undefined;
  port?: number | null | undefined;
}

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

async function recordsAtName(trx: Db, zone: string, qname: string) {
  return trx
    .selectFrom('dns_records')
    .select(['id', 'rtype', 'value', 'priority', 'weight', 'port'])
    .where('zone', '=', zone)
    .where('qname', '=', qname)
    .execute();
}

async function prepare(
  trx: Db,
  zone: { domain: string; id: number },
  input: RecordInputFields,
  exceptId?: number,
): Promise<RecordFields> {
  const { settings } = await loadSettings(trx);
  const res = normalizeRecord(input, zone.domain, settings);
  if ('problem' in res) throw fieldError(res.problem.field, res.problem.message);
  const clash = conflictAtName(res.record, await recordsAtName(trx, zone.domain, res.record.qname), exceptId);
  if (clash) throw conflict(clash.message, [{ field: clash.field, message: clash.message }]);
  return res.record;
}

function assertPrimary(zone: { domain: string; zone_type: string }): void {
  if (zone.zone_type !== 'primary') throw conflict(dnsMessages.secondaryNoRecords(zone.domain));
}

export async function addRecord(
  ctx: DnsContext,
  zoneDomain: string,
  input: RecordInputFields,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    assertPrimary(zone);
    const rec = await prepare(trx, zone, input);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        const row = await w
          .insertInto('dns_records')
          .values({ zone: zone.domain, ...rec })
          .returningAll()
          .executeTakeFirstOrThrow();
        await applyCountDeltas(
          w,
          ctx.deps.database.dialect,
          new CountDeltas().add(zone.domain, rec.rtype, 1),
        );
        return toRecord(row);
      },
    };
  });
}

export interface RecordPick {
  value?: string | undefined;
  id?: number | undefined;
}

/** The one record at a name and type, chosen by id or value when there are several. */
async function pickRecord(
  trx: Db,
  zone: { id: number; domain: string },
  qnameInput: string,
  rtype: DnsRecordType,
  pick: RecordPick,
): Promise<RecordRow> {
  const qname = toRelativeName(qnameInput, zone.domain);
  if (qname === null) throw fieldError('qname', dnsMessages.nameOutsideZone(zone.domain));
  let q = trx
    .selectFrom('dns_records')
    .selectAll()
    .where('zone', '=', zone.domain)
    .where('qname', '=', qname)
    .where('rtype', '=', rtype);
  if (pick.id !== undefined) q = q.where('id', '=', pick.id);
  if (pick.value !== undefined && pick.value !== '')
    q = q.where('value', '=', normalizeValue(rtype, pick.value, zone.domain));
  const rows = await q.orderBy('id').limit(50).execute();
  if (rows.length === 0) throw notFound(dnsMessages.recordNotFound);
  if (rows.length > 1) throw conflict(dnsMessages.recordAmbiguous(rows.length), rows.map(toRecord));
  return rows[0] as RecordRow;
}

export async function updateRecord(
  ctx: DnsContext,
  zoneDomain: string,
  qname: string,
  rtype: DnsRecordType,
  pick: RecordPick,
  input: RecordInputFields,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    assertPrimary(zone);
    const current = await pickRecord(trx, zone, qname, rtype, pick);
    const rec = await prepare(trx, zone, input, current.id);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        if (rec.rtype !== current.rtype) {
          const deltas = new CountDeltas().add(zone.domain, current.rtype, -1).add(zone.domain, rec.rtype, 1);
          await applyCountDeltas(w, ctx.deps.database.dialect, deltas);
        }
        const row = await w
          .updateTable('dns_records')
          .set(rec)
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toRecord(row);
      },
    };
  });
}

export async function deleteRecord(
  ctx: DnsContext,
  zoneDomain: string,
  qname: string,
  rtype: DnsRecordType,
  pick: RecordPick,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    const current = await pickRecord(trx, zone, qname, rtype, pick);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        await w.deleteFrom('dns_records').where('id', '=', current.id).execute();
        await applyCountDeltas(
          w,
          ctx.deps.database.dialect,
          new CountDeltas().add(zone.domain, current.rtype, -1),
        );
        return toRecord(current);
      },
    };
  });
}

/**
 * Deletes several records by id in one DNS change (one transaction, one audit line, each zone
 * republished once): every id must exist, or nothing changes.
 */
export async function deleteRecords(ctx: DnsContext, list: number[]): Promise<number> {
  const ids = [...new Set(list)];
  return runDnsAction(
    ctx,
    async (trx) => {
      const rows = await trx.selectFrom('dns_records').selectAll().where('id', 'in', ids).execute();
      if (rows.length !== ids.length) {
        const found = new Set(rows.map((r) => Number(r.id)));
        const missing = ids.filter((id) => !found.has(id));
        throw fieldError(
          'ids',
          `${missing.length === 1 ? 'This record was' : 'These records were'} not found (deleted meanwhile?): ${missing.slice(0, 10).join(', ')}`,
        );
      }
      const zones = [...new Set(rows.map((r) => r.zone))].sort();
      return {
        plan: { zones: zones.map((domain) => ({ domain, bump: 'always' as const })) },
        write: async (w) => {
          await w.deleteFrom('dns_records').where('id', 'in', ids).execute();
          const deltas = new CountDeltas();
          for (const r of rows) deltas.add(r.zone, r.rtype, -1);
          await applyCountDeltas(w, ctx.deps.database.dialect, deltas);
          return rows.length;
        },
      };
    },
    (n) => ({ target: `${n} records`, details: { ids } }),
  );
}

/**
 * The spec's `dns/records/remove {qname, rtype}`: without a zone the name may be absolute
 * (`www.example.com`) or relative; zone and value narrow it down to one record.
 */
export async function removeRecordByName(
  ctx: DnsContext,
  body: { qname: string; rtype: DnsRecordType; zone?: string | undefined; value?: string | undefined },
): Promise<DnsRecord> {
  if (body.zone) {
    return deleteRecord(ctx, body.zone, body.qname, body.rtype, { value: body.value });
  }
  const { db } = ctx.deps.database;
  const name = body.qname.trim().toLowerCase().replace(/\.$/, '');
  const rel = name === '@' ? '' : name;
  const absolute = sql<string>`case when qname = '' then zone else qname || '.' || zone end`;
  const rows = await db
    .selectFrom('dns_records')
    .selectAll()
    .where('rtype', '=', body.rtype)
    .where((eb) => eb.or([eb('qname', '=', rel), eb(absolute, '=', name)]))
    .limit(50)
    .execute();
  const matching = body.value
    ? rows.filter((r) => r.value === normalizeValue(body.rtype, body.value ?? '', r.zone))
    : rows;
  if (matching.length === 0) throw notFound(dnsMessages.recordNotFound);
  if (matching.length > 1)
    throw conflict(dnsMessages.recordAmbiguous(matching.length), matching.map(toRecord));
  const only = matching[0] as RecordRow;
  return deleteRecord(ctx, only.zone, only.qname === '' ? '@' : only.qname, body.rtype, { id: only.id });
}

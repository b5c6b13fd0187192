import { type Insertable, type Kysely, sql } from 'kysely';
import type { DnsRecordTable } from '../../../db/dns.tables.ts';
import type { Database } from '../../../db/schema.ts';
import type { RecordFields } from './record.rules.ts';
import type { RecordRow } from './record-rows.mapper.ts';

/**
 * The SQL of `dns_records` (row -> contract mapping in record-rows.ts; lists in
 * record-list.repository.ts, bulk inserts in record-bulk.repository.ts).
 */

type Db = Kysely<Database>;

/** The records at one name of a zone, as the conflict rules compare them. */
export async function recordsAtName(db: Db, zone: string, qname: string) {
  return db
    .selectFrom('dns_records')
    .select(['id', 'rtype', 'value', 'priority', 'weight', 'port'])
    .where('zone', '=', zone)
    .where('qname', '=', qname)
    .execute();
}

/** The records at several names of these zones (a bulk batch's names), as the rules compare them. */
export async function recordsAtNames(db: Db, zones: string[], names: string[]) {
  return db
    .selectFrom('dns_records')
    .select(['id', 'zone', 'qname', 'rtype', 'value', 'priority', 'weight', 'port'])
    .where('zone', 'in', zones)
    .where('qname', 'in', names)
    .execute();
}

/** Every record of a zone, as the rules compare them (an import's existing records). */
export async function zoneRecordsToCompare(db: Db, zone: string) {
  return db
    .selectFrom('dns_records')
    .select(['id', 'qname', 'rtype', 'value', 'priority', 'weight', 'port'])
    .where('zone', '=', zone)
    .execute();
}

/** The records at a name and type, narrowed by id and value; at most 50, by id. */
export async function recordsMatching(
  db: Db,
  zone: string,
  qname: string,
  rtype: string,
  pick: { id?: number | undefined; value?: string | undefined },
): Promise<RecordRow[]> {
  let q = db
    .selectFrom('dns_records')
    .selectAll()
    .where('zone', '=', zone)
    .where('qname', '=', qname)
    .where('rtype', '=', rtype);
  if (pick.id !== undefined) q = q.where('id', '=', pick.id);
  if (pick.value !== undefined) q = q.where('value', '=', pick.value);
  return q.orderBy('id').limit(50).execute();
}

/** Records of a type named relative to their zone (`rel`) or absolutely (`name`); at most 50. */
export async function recordsNamed(db: Db, rtype: string, rel: string, name: string): Promise<RecordRow[]> {
  const absolute = sql<string>`case when qname = '' then zone else qname || '.' || zone end`;
  return db
    .selectFrom('dns_records')
    .selectAll()
    .where('rtype', '=', rtype)
    .where((eb) => eb.or([eb('qname', '=', rel), eb(absolute, '=', name)]))
    .limit(50)
    .execute();
}

export async function findRecord(db: Db, id: number): Promise<RecordRow | undefined> {
  return db.selectFrom('dns_records').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The records with these ids (those that exist), by id. */
export async function recordsByIds(db: Db, ids: number[]): Promise<RecordRow[]> {
  return db.selectFrom('dns_records').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** The zone of each of these ids that exists. */
export async function recordZones(db: Db, ids: number[]): Promise<{ id: number; zone: string }[]> {
  const rows = await db.selectFrom('dns_records').select(['id', 'zone']).where('id', 'in', ids).execute();
  return rows.map((r) => ({ id: Number(r.id), zone: r.zone }));
}

/** The records of these zones as zone files render them: by zone, name, type, then insertion. */
export async function recordsToRender(db: Db, zones: string[]) {
  return db
    .selectFrom('dns_records')
    .select(['zone', 'qname', 'rtype', 'value', 'ttl', 'priority', 'weight', 'port'])
    .where('zone', 'in', zones)
    .orderBy('zone')
    .orderBy('qname')
    .orderBy('rtype')
    .orderBy('id')
    .execute();
}

/** The administrator's own records at these names of a zone (they replace derived ones). */
export async function ownRecordsAt(db: Db, zone: string, names: string[]) {
  return db
    .selectFrom('dns_records')
    .select(['qname', 'rtype', 'value'])
    .where('zone', '=', zone)
    .where('qname', 'in', names)
    .execute();
}

export async function insertRecord(db: Db, zone: string, fields: RecordFields): Promise<RecordRow> {
  return db
    .insertInto('dns_records')
    .values({ zone, ...fields })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertRecords(db: Db, rows: Insertable<DnsRecordTable>[]): Promise<void> {
  await db.insertInto('dns_records').values(rows).execute();
}

export async function updateRecordRow(db: Db, id: number, fields: RecordFields): Promise<RecordRow> {
  return db
    .updateTable('dns_records')
    .set(fields)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteRecordRows(db: Db, ids: number[]): Promise<void> {
  await db.deleteFrom('dns_records').where('id', 'in', ids).execute();
}

export async function deleteZoneRecords(db: Db, zone: string): Promise<void> {
  await db.deleteFrom('dns_records').where('zone', '=', zone).execute();
}

/** How many records are stored (all zones; the metrics' exact count). */
export async function countRecords(db: Kysely<Database>): Promise<number> {
  const r = await db
    .selectFrom('dns_records')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

import type { DnsRecord } from '@mailroom/contract/dns';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { EXPORT_BATCH } from '../../http/stream-export.ts';
import { toRecord } from './record-rows.ts';

type Db = Kysely<Database>;

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

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RecordFields } from './record-rules.ts';

// Rows travel as one JSON parameter per chunk: the statement stays small (nothing to compile or
// prepare per row), and the database unpacks the array natively.
const CHUNK = 5000;

/** Inserts records, zone by zone, in the order given. */
export async function bulkInsertRecords(
  db: Kysely<Database>,
  dialect: string,
  groups: { zone: string; records: RecordFields[] }[],
): Promise<void> {
  let chunk: unknown[][] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const json = JSON.stringify(chunk);
    chunk = [];
    if (dialect === 'postgres') {
      await sql`insert into dns_records (zone, qname, rtype, value, ttl, priority, weight, port)
        select e->>0, e->>1, e->>2, e->>3, (e->>4)::int, (e->>5)::int, (e->>6)::int, (e->>7)::int
        from json_array_elements(${json}::json) as e`.execute(db);
    } else {
      await sql`insert into dns_records (zone, qname, rtype, value, ttl, priority, weight, port)
        select value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7
        from json_each(${json})`.execute(db);
    }
  };
  for (const g of groups) {
    for (const r of g.records) {
      chunk.push([g.zone, r.qname, r.rtype, r.value, r.ttl, r.priority, r.weight, r.port]);
      if (chunk.length === CHUNK) await flush();
    }
  }
  await flush();
}

import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import { preparedQuery } from '../../../db/prepared.ts';
import type { Database } from '../../../db/schema.ts';
import type { RecordFields } from '../records/record.rules.ts';

/** The SQL of the bulk inserts into `dns_records` (an import's rows). */

// PostgreSQL: rows travel as one JSON parameter per chunk, so the statement stays small (nothing to
// compile or prepare per row) and the database unpacks the array natively.
const CHUNK = 5000;

// SQLite: one cached statement inserting ROWS rows at a time (8 parameters each), run straight on
// better-sqlite3 — no statement to build, compile or prepare per chunk.
const ROWS = 200;
const placeholder = {
  zone: '',
  qname: '',
  rtype: '',
  value: '',
  ttl: 0,
  priority: null,
  weight: null,
  port: null,
};
const insertRows = preparedQuery((db) =>
  db.insertInto('dns_records').values(Array.from({ length: ROWS }, () => placeholder)),
);
const insertRow = preparedQuery((db) => db.insertInto('dns_records').values(placeholder));

/**
 * Inserts records, zone by zone, in the order given. `db` is the action's transaction; on SQLite
 * the rows go through the handle's own (registered) instance instead, which shares the one
 * connection the transaction holds (passed as `holding`, so they do not wait for its lock).
 */
export async function bulkInsertRecords(
  db: Kysely<Database>,
  database: DatabaseHandle,
  groups: { zone: string; records: RecordFields[] }[],
): Promise<void> {
  if (database.dialect === 'sqlite') {
    const params: unknown[] = [];
    for (const g of groups) {
      for (const r of g.records) {
        params.push(g.zone, r.qname, r.rtype, r.value, r.ttl, r.priority, r.weight, r.port);
        if (params.length === ROWS * 8) {
          await insertRows(database.db, params, db);
          params.length = 0;
        }
      }
    }
    for (let i = 0; i < params.length; i += 8) await insertRow(database.db, params.slice(i, i + 8), db);
    return;
  }
  let chunk: unknown[][] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const json = JSON.stringify(chunk);
    chunk = [];
    await sql`insert into dns_records (zone, qname, rtype, value, ttl, priority, weight, port)
      select e->>0, e->>1, e->>2, e->>3, (e->>4)::int, (e->>5)::int, (e->>6)::int, (e->>7)::int
      from json_array_elements(${json}::json) as e`.execute(db);
  };
  for (const g of groups) {
    for (const r of g.records) {
      chunk.push([g.zone, r.qname, r.rtype, r.value, r.ttl, r.priority, r.weight, r.port]);
      if (chunk.length === CHUNK) await flush();
    }
  }
  await flush();
}

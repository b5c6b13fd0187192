import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { nextSerial } from './serial.rules.ts';

type Db = Kysely<Database>;

/** Every primary zone's SOA serial now (what secondaries have seen, or will). */
export async function primarySerials(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('dns_zones')
    .select(['domain', 'serial'])
    .where('zone_type', '=', 'primary')
    .execute();
  return new Map(rows.map((r) => [r.domain, Number(r.serial)]));
}

/**
 * After a restore rewound the zones: each primary zone whose serial went below what was served
 * before gets the next serial after that one (secondaries ignore a serial that went backwards), in
 * one transaction. A zone the restore left at the same serial is the same zone: untouched.
 * Answers the zones raised.
 */
export async function raiseSerialsAbove(db: Db, served: Map<string, number>, now: Date): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const raised: string[] = [];
    for (const [domain, serial] of await primarySerials(trx)) {
      const floor = served.get(domain);
      if (floor === undefined || serial >= floor) continue;
      await trx
        .updateTable('dns_zones')
        .set({ serial: nextSerial(floor, now), updated_at: now.toISOString() })
        .where('domain', '=', domain)
        .execute();
      raised.push(domain);
    }
    return raised;
  });
}

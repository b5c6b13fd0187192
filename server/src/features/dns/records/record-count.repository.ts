import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `dns_record_counts` (records per zone and type) and of each zone's `record_count`. */

// Many zones change in one statement (a JSON parameter unpacked by the database), so an import
// touching thousands of zones does not pay a round trip per zone.
const CHUNK = 5000;

/** Record count changes, per zone and type, gathered before they are written. */
export class CountDeltas {
  private readonly byKey = new Map<string, [string, string, number]>();

  add(zone: string, rtype: string, n: number): this {
    const k = `${zone}\u0000${rtype}`;
    const e = this.byKey.get(k);
    if (e) e[2] += n;
    else this.byKey.set(k, [zone, rtype, n]);
    return this;
  }

  entries(): [string, string, number][] {
    return [...this.byKey.values()].filter((e) => e[2] !== 0);
  }
}

/** Applies count changes to the per-type table and to each zone's total, in bulk. */
export async function applyCountDeltas(
  db: Kysely<Database>,
  dialect: string,
  deltas: CountDeltas,
): Promise<void> {
  const all = deltas.entries();
  const perZone = new Map<string, number>();
  for (const [zone, , n] of all) perZone.set(zone, (perZone.get(zone) ?? 0) + n);
  const zones = [...perZone.entries()].filter(([, n]) => n !== 0);
  for (let i = 0; i < all.length; i += CHUNK) {
    const json = JSON.stringify(all.slice(i, i + CHUNK));
    if (dialect === 'postgres') {
      await sql`insert into dns_record_counts (zone, rtype, n)
        select e->>0, e->>1, (e->>2)::int from json_array_elements(${json}::json) as e
        on conflict (zone, rtype) do update set n = dns_record_counts.n + excluded.n`.execute(db);
    } else {
      await sql`insert into dns_record_counts (zone, rtype, n)
        select value->>0, value->>1, value->>2 from json_each(${json}) where true
        on conflict (zone, rtype) do update set n = dns_record_counts.n + excluded.n`.execute(db);
    }
  }
  for (let i = 0; i < zones.length; i += CHUNK) {
    const json = JSON.stringify(zones.slice(i, i + CHUNK));
    if (dialect === 'postgres') {
      await sql`update dns_zones as z set record_count = z.record_count + (e->>1)::int
        from json_array_elements(${json}::json) as e where z.domain = e->>0`.execute(db);
    } else {
      await sql`update dns_zones set record_count = record_count + j.value->>1
        from json_each(${json}) as j where dns_zones.domain = j.value->>0`.execute(db);
    }
  }
}

/** Forgets a zone's counts (the zone is being removed). */
export async function deleteZoneCounts(db: Kysely<Database>, zone: string): Promise<void> {
  await db.deleteFrom('dns_record_counts').where('zone', '=', zone).execute();
}

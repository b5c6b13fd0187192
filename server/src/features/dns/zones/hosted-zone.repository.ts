import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** The names of the DNS zones hosted here (primary and secondary). */
export async function hostedZoneNames(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('dns_zones').select('domain').execute()).map((z) => z.domain);
}

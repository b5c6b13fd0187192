import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The SQL of `list_versions`: the counters the triggers raise on every change of a listed table. */
export async function listVersions(
  db: Kysely<Database>,
  names: string[],
): Promise<{ name: string; version: number | string | bigint }[]> {
  return db.selectFrom('list_versions').select(['name', 'version']).where('name', 'in', names).execute();
}

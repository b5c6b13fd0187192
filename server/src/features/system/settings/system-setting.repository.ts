import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** The one owner of `system_settings` (name -> value rows; absent names have their defaults). */

type Db = Kysely<Database>;

/** Every stored value, by name. */
export async function storedSettings(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom('system_settings').select(['name', 'value']).execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

/** One stored value (undefined: never saved). */
export async function storedSetting(db: Db, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('system_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

export async function upsertSetting(db: Db, name: string, value: string, at: number): Promise<void> {
  await db
    .insertInto('system_settings')
    .values({ name, value, updated_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at }))
    .execute();
}

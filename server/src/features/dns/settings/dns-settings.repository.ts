import type { Kysely, Selectable, Updateable } from 'kysely';
import type { DnsSettingsTable } from '../../../db/dns.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `dns_settings`: one row (id 1) with the settings, their version and the last check. */

type Db = Kysely<Database>;

const SETTINGS_ID = 1;

/** The stored settings (JSON) and their version; undefined before the row exists. */
export async function settingsData(db: Db): Promise<{ data: string; version: number } | undefined> {
  return db
    .selectFrom('dns_settings')
    .select(['data', 'version'])
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
}

export async function settingsRowExists(db: Db): Promise<boolean> {
  return !!(await db
    .selectFrom('dns_settings')
    .select('id')
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst());
}

/** Creates the row with these settings as version 1 (a row made meanwhile is kept). */
export async function insertSettingsRow(db: Db, data: string): Promise<void> {
  await db
    .insertInto('dns_settings')
    .values({ id: SETTINGS_ID, data, version: 1 })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function storeSettingsData(db: Db, data: string, version: number): Promise<void> {
  await db.updateTable('dns_settings').set({ data, version }).where('id', '=', SETTINGS_ID).execute();
}

/** Takes the row's lock until the transaction ends (PostgreSQL; SQLite has one writer anyway). */
export async function lockSettingsRow(trx: Db): Promise<void> {
  await trx.selectFrom('dns_settings').select('id').where('id', '=', SETTINGS_ID).forUpdate().execute();
}

/** The whole row: the settings and the Status card's last check and reload. */
export async function statusRow(db: Db): Promise<Selectable<DnsSettingsTable> | undefined> {
  return db.selectFrom('dns_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
}

/** Writes the Status card's columns (check, apply, notes, reload). */
export async function updateStatusRow(db: Db, set: Updateable<DnsSettingsTable>): Promise<void> {
  await db.updateTable('dns_settings').set(set).where('id', '=', SETTINGS_ID).execute();
}

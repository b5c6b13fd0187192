import { WEB_SETTINGS_DEFAULTS, type WebServerSettings } from '@mailroom/contract/web/settings';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

/** The web server settings: the stored row over the spec's defaults (fields added later get theirs). */
export async function readWebSettings(db: Db): Promise<WebServerSettings> {
  const row = await db.selectFrom('web_settings').select('settings').where('id', '=', 1).executeTakeFirst();
  if (!row) return { ...WEB_SETTINGS_DEFAULTS };
  return { ...WEB_SETTINGS_DEFAULTS, ...(JSON.parse(row.settings) as Partial<WebServerSettings>) };
}

export async function writeWebSettings(db: Db, s: WebServerSettings): Promise<void> {
  const now = new Date().toISOString();
  const settings = JSON.stringify(s);
  await db
    .insertInto('web_settings')
    .values({ id: 1, settings, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ settings, updated_at: now }))
    .execute();
}

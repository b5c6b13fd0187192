import type { Kysely, Selectable } from 'kysely';
import type { MailSettingsTable } from '../../../db/mail.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mail_settings` (one row, id 1, versioned: a save names the version it read). */

type Db = Kysely<Database>;

const SETTINGS_ID = 1;

/** The settings row, made with `initial` (as version 1) when there is none yet. */
export async function settingsRow(db: Db, initial: () => string): Promise<Selectable<MailSettingsTable>> {
  const row = await db
    .selectFrom('mail_settings')
    .selectAll()
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
  if (row) return row;
  await db
    .insertInto('mail_settings')
    .values({
      id: SETTINGS_ID,
      settings: initial(),
      version: 1,
      applied_at: null,
      check_ok: null,
      check_output: null,
      updated_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('mail_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirstOrThrow();
}

/**
 * The stored settings' host name, read without making the row: undefined when there is no row,
 * its JSON is unreadable or it names no host (the DNS area's name servers default to it).
 */
export async function storedHostName(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('mail_settings')
    .select('settings')
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  try {
    const hostname = (JSON.parse(row.settings) as { hostname?: unknown }).hostname;
    return typeof hostname === 'string' ? hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the settings of a row never saved (version 1) without making a new version. */
export async function replaceFirstVersion(db: Db, settings: string): Promise<void> {
  await db
    .updateTable('mail_settings')
    .set({ settings })
    .where('id', '=', SETTINGS_ID)
    .where('version', '=', 1)
    .execute();
}

/** Saves new settings when `version` is still current; false when someone saved in between. */
export async function saveSettingsVersion(db: Db, settings: string, version: number): Promise<boolean> {
  const res = await db
    .updateTable('mail_settings')
    .set({ settings, version: version + 1, updated_at: new Date().toISOString() })
    .where('id', '=', SETTINGS_ID)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Stores the outcome of rendering and checking the mail server's files. */
export async function storeApplyOutcome(
  db: Db,
  outcome: { appliedAt?: string; checkOk: number | null; checkOutput: string | null },
): Promise<void> {
  await db
    .updateTable('mail_settings')
    .set({
      ...(outcome.appliedAt !== undefined ? { applied_at: outcome.appliedAt } : {}),
      check_ok: outcome.checkOk,
      check_output: outcome.checkOutput,
    })
    .where('id', '=', SETTINGS_ID)
    .execute();
}

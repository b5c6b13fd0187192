import os from 'node:os';
import type { ConfigCheck, MailFilterStatus, MailSettingsResponse } from '@mailroom/contract/mail';
import { defaultMailSettings, MailSettings, mailMessages } from '@mailroom/contract/mail';
import { DOMAIN_RE } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

const SETTINGS_ID = 1;

/** §9 defaults, with hostname and domain taken from this machine's name. */
export function machineDefaults(name = os.hostname()): MailSettings {
  let fqdn = name.trim().toLowerCase();
  if (!fqdn.includes('.')) fqdn += '.localdomain';
  if (!DOMAIN_RE.test(fqdn)) fqdn = 'mail.example.com';
  const rest = fqdn.slice(fqdn.indexOf('.') + 1);
  return defaultMailSettings(fqdn, rest.includes('.') ? rest : fqdn);
}

export interface StoredSettings {
  settings: MailSettings;
  version: number;
  appliedAt: string | null;
  check: ConfigCheck | null;
}

/** The saved settings; a fresh install gets the defaults as version 1. */
export async function readMailSettings(db: Db): Promise<StoredSettings> {
  let row = await db.selectFrom('mail_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
  if (!row) {
    await db
      .insertInto('mail_settings')
      .values({
        id: SETTINGS_ID,
        settings: JSON.stringify(machineDefaults()),
        version: 1,
        applied_at: null,
        check_ok: null,
        check_output: null,
        updated_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await db
      .selectFrom('mail_settings')
      .selectAll()
      .where('id', '=', SETTINGS_ID)
      .executeTakeFirstOrThrow();
  }
  const parsed = MailSettings.safeParse(JSON.parse(row.settings));
  return {
    settings: parsed.success ? parsed.data : machineDefaults(),
    version: Number(row.version),
    appliedAt: row.applied_at,
    check: row.check_ok === null ? null : { ok: Number(row.check_ok) === 1, output: row.check_output ?? '' },
  };
}

export function settingsResponse(s: StoredSettings, filter: MailFilterStatus): MailSettingsResponse {
  return { ...s, defaults: machineDefaults(), filter };
}

/** Writes new settings when `version` is still current; false when someone saved in between. */
export async function writeMailSettings(db: Db, settings: MailSettings, version: number): Promise<boolean> {
  const res = await db
    .updateTable('mail_settings')
    .set({ settings: JSON.stringify(settings), version: version + 1, updated_at: new Date().toISOString() })
    .where('id', '=', SETTINGS_ID)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records the outcome of rendering and checking the mail server's files. */
export async function recordApply(db: Db, check: ConfigCheck | null, applied: boolean): Promise<void> {
  await db
    .updateTable('mail_settings')
    .set({
      ...(applied ? { applied_at: new Date().toISOString() } : {}),
      check_ok: check === null ? null : check.ok ? 1 : 0,
      check_output: check?.output.slice(0, 20_000) ?? null,
    })
    .where('id', '=', SETTINGS_ID)
    .execute();
}

export const staleMessage = mailMessages.staleSettings;

import { SSL_SETTINGS_DEFAULTS, SslSettings } from '@mailroom/contract/ssl';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict } from '../../http/errors.ts';

/** The one owner of `ssl_settings` (a single row): reads, writes, and its row -> settings mapping. */

type Db = Kysely<Database>;
const ID = 1;

export interface StoredSslSettings {
  settings: SslSettings;
  version: number;
  mailCertificateId: number | null;
  renewalCheckedAt: number | null;
}

/** The saved settings; a fresh install gets the spec's defaults as version 1. */
export async function readSslSettings(db: Db): Promise<StoredSslSettings> {
  let row = await db.selectFrom('ssl_settings').selectAll().where('id', '=', ID).executeTakeFirst();
  if (!row) {
    await db
      .insertInto('ssl_settings')
      .values({
        id: ID,
        settings: JSON.stringify(SSL_SETTINGS_DEFAULTS),
        version: 1,
        mail_certificate_id: null,
        renewal_checked_at: null,
        updated_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await db.selectFrom('ssl_settings').selectAll().where('id', '=', ID).executeTakeFirstOrThrow();
  }
  const parsed = SslSettings.safeParse({ ...SSL_SETTINGS_DEFAULTS, ...(JSON.parse(row.settings) as object) });
  return {
    settings: parsed.success ? parsed.data : SSL_SETTINGS_DEFAULTS,
    version: Number(row.version),
    mailCertificateId: row.mail_certificate_id === null ? null : Number(row.mail_certificate_id),
    renewalCheckedAt: row.renewal_checked_at === null ? null : Number(row.renewal_checked_at),
  };
}

/**
 * Saves the settings (optimistic version check). A change of the renewal settings (auto-renewal,
 * interval, threshold) also forgets the last scheduled check, so the scheduler checks under the new
 * settings at its next tick instead of after the old interval.
 */
export async function writeSslSettings(
  db: Db,
  s: SslSettings,
  version: number,
  before?: SslSettings,
): Promise<void> {
  const renewalChanged =
    before !== undefined &&
    (before.enableAutoRenewal !== s.enableAutoRenewal ||
      before.renewalCheckInterval !== s.renewalCheckInterval ||
      before.renewalThreshold !== s.renewalThreshold);
  const r = await db
    .updateTable('ssl_settings')
    .set({
      settings: JSON.stringify(s),
      version: version + 1,
      updated_at: new Date().toISOString(),
      ...(renewalChanged ? { renewal_checked_at: null } : {}),
    })
    .where('id', '=', ID)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1)
    throw conflict('The SSL settings were changed by someone else; reload them and save again.');
}

export async function writeMailCertificate(db: Db, id: number | null): Promise<void> {
  await readSslSettings(db);
  await db.updateTable('ssl_settings').set({ mail_certificate_id: id }).where('id', '=', ID).execute();
}

/** Records the time of a scheduled renewal check (the scheduler's rhythm survives a restart). */
export async function markRenewalChecked(db: Db, at: number): Promise<void> {
  await db.updateTable('ssl_settings').set({ renewal_checked_at: at }).where('id', '=', ID).execute();
}

/** A deleted certificate no longer serves mail: the mail certificate falls back to none. */
export async function clearMailCertificate(db: Db, certificateId: number): Promise<void> {
  await db
    .updateTable('ssl_settings')
    .set({ mail_certificate_id: null })
    .where('mail_certificate_id', '=', certificateId)
    .execute();
}

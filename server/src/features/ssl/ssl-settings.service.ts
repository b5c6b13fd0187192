import { SSL_SETTINGS_DEFAULTS, SslSettings, TLS_VERSIONS } from '@mailroom/contract/ssl';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError } from '../../http/errors.ts';

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

/** The TLS versions the settings allow: within minimum..maximum and switched on. */
export function allowedTlsVersions(s: SslSettings): string[] {
  const on: Record<string, boolean> = {
    '1.0': s.enableTls10,
    '1.1': s.enableTls11,
    '1.2': s.enableTls12,
    '1.3': s.enableTls13,
  };
  const lo = TLS_VERSIONS.indexOf(s.minimumTlsVersion);
  const hi = TLS_VERSIONS.indexOf(s.maximumTlsVersion);
  return TLS_VERSIONS.filter((v, i) => i >= lo && i <= hi && on[v]);
}

/** Cross-field rules the form cannot express alone. */
export function checkSslSettings(s: SslSettings): void {
  if (TLS_VERSIONS.indexOf(s.minimumTlsVersion) > TLS_VERSIONS.indexOf(s.maximumTlsVersion))
    throw fieldError('maximumTlsVersion', 'Maximum TLS Version must be at least the Minimum TLS Version');
  if (allowedTlsVersions(s).length === 0)
    throw fieldError(
      'minimumTlsVersion',
      'No TLS version is switched on between the minimum and the maximum',
    );
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

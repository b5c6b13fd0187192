import { TLS_VERSIONS, type SslSettings } from '@mailroom/contract/ssl';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fieldError } from '../../http/errors.ts';
import { audited } from './audited.service.ts';
import { certificateExists, dueElsewhere } from './certificate.repository.ts';
import { readSslSettings, writeMailCertificate, writeSslSettings } from './ssl-settings.repository.ts';

type Db = Kysely<Database>;

export { readSslSettings };

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

/** Saves the settings (audited, optimistic version check); the caller re-applies the mail stack. */
export async function saveSslSettings(db: Db, settings: SslSettings, version: number): Promise<void> {
  checkSslSettings(settings);
  const before = await readSslSettings(db);
  await audited(db, async (trx, audit) => {
    await writeSslSettings(trx, settings, version, before.settings);
    await audit({ before: before.settings, after: settings, details: { version: version + 1 } });
  });
}

/** Chooses the certificate the mail server serves (null: the host name's own), audited. */
export async function chooseMailCertificate(db: Db, certificateId: number | null): Promise<void> {
  if (certificateId !== null && !(await certificateExists(db, certificateId)))
    throw fieldError('certificateId', `No certificate with id ${certificateId}`);
  await audited(db, async (trx, audit) => {
    await writeMailCertificate(trx, certificateId);
    await audit({
      target: certificateId === null ? 'host name' : `certificate ${certificateId}`,
    });
  });
}

/** Certificates due for renewal that another place renews (their domains), under the threshold. */
export async function renewalsElsewhere(db: Db): Promise<string[]> {
  return dueElsewhere(db, (await readSslSettings(db)).settings.renewalThreshold);
}

import type { MailTls, MailTlsPolicy, MailTlsSource } from '@mailroom/contract/mail-tls';
import type { SslSettings } from '@mailroom/contract/ssl';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { nameCovers } from './certificate.parser.ts';
import type { SecretVault } from '../../security/secret-vault.ts';
import { readSslSettings } from './ssl-settings.repository.ts';
import { certificateExists, readRow, unexpiredNames } from './certificate.repository.ts';
import { allowedTlsVersions } from './ssl-settings.service.ts';

type Db = Kysely<Database>;

const OPENSSL_NAMES: Record<string, string> = {
  '1.0': 'TLSv1',
  '1.1': 'TLSv1.1',
  '1.2': 'TLSv1.2',
  '1.3': 'TLSv1.3',
};

export function mailTlsPolicy(s: SslSettings): MailTlsPolicy {
  const allowed = allowedTlsVersions(s);
  const excluded = [
    'SSLv2',
    'SSLv3',
    ...Object.entries(OPENSSL_NAMES)
      .filter(([v]) => !allowed.includes(v))
      .map(([, n]) => n),
  ];
  return {
    excludedProtocols: excluded,
    minProtocol: OPENSSL_NAMES[allowed[0] ?? '1.2'] ?? 'TLSv1.2',
    weakCiphers: s.enableWeakCiphers,
    forwardSecrecy: s.enablePerfectForwardSecrecy,
    sessionCache: s.enableSslSessionCache,
    sessionTimeoutSeconds: s.sslSessionTimeout,
    sessionTickets: s.enableSslSessionTickets,
    renegotiation: s.enableSslRenegotiation,
  };
}

/**
 * The certificate the mail server serves: the one chosen in the settings, else the unexpired one
 * covering the host name that expires last. Null: none (the mail area keeps its own self-signed one).
 */
export async function servedMailCertificateId(
  db: Db,
  hostname: string,
  chosen: number | null,
  now = Date.now(),
): Promise<number | null> {
  if (chosen !== null) {
    if (await certificateExists(db, chosen)) return chosen;
  }
  const rows = await unexpiredNames(db, now, 500);
  const hit = rows.find((r) => (JSON.parse(r.names) as string[]).some((n) => nameCovers(n, hostname)));
  return hit ? Number(hit.id) : null;
}

export function mailTlsSource(vault: SecretVault): MailTlsSource<Db> {
  return async (hostname, db) => {
    const { settings, mailCertificateId } = await readSslSettings(db);
    const id = await servedMailCertificateId(db, hostname, mailCertificateId);
    let certificate: MailTls | null = null;
    if (id !== null) {
      const row = await readRow(db, id);
      certificate = {
        fullchainPem: row.certificate_pem + row.chain_pem,
        keyPem: vault.open(row.key_enc),
        fingerprint: row.fingerprint,
        certificateId: id,
      };
    }
    return { certificate, policy: mailTlsPolicy(settings) };
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretVault } from '../../security/secret-vault.ts';
import { allowedTlsVersions, readSslSettings } from './ssl-settings.service.ts';

type Db = Kysely<Database>;

/** A stored certificate for a web site: PEMs (the key opened from the vault) and its names. */
export interface WebTls {
  certificatePem: string;
  chainPem: string;
  keyPem: string;
  names: string[];
  fingerprint: string;
}

/** For the web area (app.ts hands it over): the certificate with this id, or null. */
export function webTlsSource(vault: SecretVault): (id: number, db: Db) => Promise<WebTls | null> {
  return async (id, db) => {
    const row = await db.selectFrom('ssl_certificates').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return {
      certificatePem: row.certificate_pem,
      chainPem: row.chain_pem,
      keyPem: vault.open(row.key_enc),
      names: JSON.parse(row.names) as string[],
      fingerprint: row.fingerprint,
    };
  };
}

/** The SSL settings that apply to the web server (Apache's SSL directives). */
export interface WebTlsPolicy {
  /** OpenSSL names of the TLS versions switched on between the minimum and the maximum. */
  protocols: string[];
  weakCiphers: boolean;
  forwardSecrecy: boolean;
  sessionCache: boolean;
  sessionCacheSize: number;
  sessionTimeout: number;
  sessionTickets: boolean;
  ocspStapling: boolean;
  ocspTimeout: number;
}

const OPENSSL: Record<string, string> = {
  '1.0': 'TLSv1',
  '1.1': 'TLSv1.1',
  '1.2': 'TLSv1.2',
  '1.3': 'TLSv1.3',
};

/** For the web area (app.ts hands it over): the SSL settings as Apache's TLS policy. */
export function webTlsPolicySource(): (db: Db) => Promise<WebTlsPolicy> {
  return async (db) => {
    const { settings: s } = await readSslSettings(db);
    return {
      protocols: allowedTlsVersions(s).map((v) => OPENSSL[v]!),
      weakCiphers: s.enableWeakCiphers,
      forwardSecrecy: s.enablePerfectForwardSecrecy,
      sessionCache: s.enableSslSessionCache,
      sessionCacheSize: s.sslSessionCacheSize,
      sessionTimeout: s.sslSessionTimeout,
      sessionTickets: s.enableSslSessionTickets,
      ocspStapling: s.enableOcspStapling,
      ocspTimeout: s.ocspStaplingTimeout,
    };
  };
}

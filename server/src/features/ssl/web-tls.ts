import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretVault } from '../../security/secret-vault.ts';

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

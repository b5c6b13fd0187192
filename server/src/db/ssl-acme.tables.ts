import type { Generated } from 'kysely';

/** One ACME account per CA directory URL (features/ssl/acme/acme-accounts.ts). */
export interface AcmeAccountTable {
  id: Generated<number>;
  directory_url: string;
  contact_email: string;
  /** The account's private key (PEM), AES-256-GCM encrypted with the data folder's acme-secret.key. */
  account_key: string;
  /** The account URL the CA answered (`kid`); empty until registered. */
  account_url: string;
  created_at: string;
  updated_at: string;
}

export interface AcmeTables {
  acme_accounts: AcmeAccountTable;
}

import type { Generated } from 'kysely';

/** One stored certificate: its PEMs (the key encrypted at rest) and the fields parsed from it. */
export interface SslCertificateTable {
  id: Generated<number>;
  /** The subject's common name, or the first DNS name. */
  domain: string;
  /** JSON array of every DNS name (subject alternative names, or the common name). */
  names: string;
  /** Lower-case text searched by the list: names, issuer, status-independent. */
  search: string;
  issuer: string;
  subject: string;
  /** ISO times from the certificate. */
  valid_from: string;
  valid_to: string;
  /** notAfter in ms: the expiry scan's index. */
  not_after: number;
  type: string;
  key_algorithm: string;
  key_size: number;
  signature_algorithm: string;
  serial: string;
  fingerprint: string;
  certificate_pem: string;
  chain_pem: string;
  /** AES-256-GCM with the data folder's key file (security/secret-vault.ts). */
  key_enc: string;
  /** upload | self-signed | csr | acme */
  source: string;
  auto_renew: number;
  /** JSON: what renewing repeats (the generation request), null for uploads. */
  renewal: string | null;
  created_at: string;
  updated_at: string;
}

/** A CSR whose key waits for the signed certificate. */
export interface SslCsrTable {
  id: Generated<number>;
  domain: string;
  names: string;
  csr_pem: string;
  key_enc: string;
  created_at: string;
}

export interface SslSettingsTable {
  id: number;
  settings: string;
  version: number;
  /** The certificate Postfix and Dovecot serve; null: the one covering the mail host name. */
  mail_certificate_id: number | null;
  /** When the renewal scheduler last checked (ms): a restart keeps the rhythm. */
  renewal_checked_at: number | null;
  updated_at: string;
}

export interface SslTables {
  ssl_certificates: SslCertificateTable;
  ssl_csrs: SslCsrTable;
  ssl_settings: SslSettingsTable;
}

import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { AcmeIssue } from './acme/acme-issuer.ts';
import type { SecretVault } from '../../security/secret-vault.ts';
import type { ListCounts } from './certificate-list.ts';
import type { CertificateUsages } from './certificate-usage.ts';

/** What the SSL area's services share. */
export interface SslContext {
  deps: AppDeps;
  db: Kysely<Database>;
  /** Seals the private keys (`ssl-keys.secret`). */
  vault: SecretVault;
  /** The list's totals, kept per change (certificate-list.ts). */
  listCounts: ListCounts;
  /** Who uses which certificate (the mail server, and whatever area registers itself). */
  usages: CertificateUsages;
  acme: AcmeIssue;
  /** The mail server's host name (mail settings), for the certificate it serves by default. */
  mailHostname: () => Promise<string>;
  /** Renders and applies the mail stack again (a served certificate or the TLS policy changed). */
  reapplyMail: () => Promise<void>;
}

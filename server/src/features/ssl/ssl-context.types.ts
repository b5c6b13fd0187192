import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { AcmeIssue } from './acme/acme-issuer.service.ts';
import type { SecretVault } from '../../security/secret-vault.ts';
import type { ListCounts } from './certificate-list.service.ts';

/** What the SSL area's services share. */
export interface SslContext {
  deps: AppDeps;
  db: Kysely<Database>;
  /** Seals the private keys (`ssl-keys.secret`). */
  vault: SecretVault;
  /** The list's totals, kept per change (certificate-list.ts). */
  listCounts: ListCounts;
  /** Who uses which certificate (the mail server, and whatever area registers itself). */
  usages: CertificateUsageRegistry;
  acme: AcmeIssue;
  /** The mail server's host name (mail settings), for the certificate it serves by default. */
  mailHostname: () => Promise<string>;
  /** Renders and applies the mail stack again (a served certificate or the TLS policy changed). */
  reapplyMail: () => Promise<void>;
}

/**
 * Something that serves stored certificates (the mail server; later a virtual host, DNS-over-TLS):
 * which certificate ids it uses now, each with the name a person recognises it by ("mail server",
 * "virtual host www.example.com"). Registered once with `CertificateUsages.register`.
 */
export interface CertificateUsage {
  uses(): Promise<{ id: number; user: string }[]>;
}

/** The one registry of certificate usages (`CertificateUsages` in certificate-usage.ts). */
export interface CertificateUsageRegistry {
  /** Adds a usage; the returned function removes it again. */
  register(u: CertificateUsage): () => void;
  all(): Promise<Map<number, string[]>>;
  usesOf(id: number): Promise<string[]>;
  refuseUnlessConfirmed(id: number, confirmed: boolean): Promise<string[]>;
}

import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { AcmeIssue } from './acme/acme-issuer.ts';
import type { KeyVault } from './key-vault.ts';

/** What the SSL area's services share. */
export interface SslContext {
  deps: AppDeps;
  db: Kysely<Database>;
  vault: KeyVault;
  acme: AcmeIssue;
  /** The mail server's host name (mail settings), for the certificate it serves by default. */
  mailHostname: () => Promise<string>;
  /** Renders and applies the mail stack again (a served certificate or the TLS policy changed). */
  reapplyMail: () => Promise<void>;
}

import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { SecretVault, VAULT_FILES } from '../../security/secret-vault.ts';
import { createAcmeIssuer } from './acme/acme-issuer.service.ts';
import { sslBulkOperations } from './certificate-bulk-ops.service.ts';
import { ListCounts } from './certificate-list.service.ts';
import { countCertificates } from './certificate.repository.ts';
import { CertificateUsages, mailUsage } from './certificate-usage.service.ts';
import { mailTlsSource } from './mail-tls.service.ts';
import { startRenewalScheduler } from './renewal-scheduler.job.ts';
import type { CertificateUsage, SslContext } from './ssl-context.types.ts';
import { registerSslRoutes, type SslRouteOptions } from './ssl.routes.ts';
import { webTlsPolicySource, webTlsSource, type WebTls, type WebTlsPolicy } from './web-tls.service.ts';

export interface SslOptions extends SslRouteOptions {
  /** Start the auto-renewal scheduler (off in tests that drive `renewalCheck` themselves). */
  scheduler?: boolean;
}

export interface SslHandle {
  /** For the mail area: the certificate to serve and the TLS policy. */
  mailTls: MailTlsSource<Kysely<Database>>;
  /** For the web area: a stored certificate (PEMs, names) for a virtual host. */
  webTls: (id: number, db: Kysely<Database>) => Promise<WebTls | null>;
  /** For the web area: the SSL settings that apply to Apache (protocols, ciphers, sessions, OCSP). */
  webPolicy: (db: Kysely<Database>) => Promise<WebTlsPolicy>;
  ctx: SslContext;
  /** Renew SSL Certificates for the bulk operations (issue 21). */
  bulkOperations: BulkOperationHandler[];
  /** How many certificates are stored (the DNS dashboard shows it). */
  count(): Promise<number>;
  /**
   * For an area that serves stored certificates (a virtual host, DNS-over-TLS): its usage shows in
   * the list and protects the certificates from an unconfirmed delete. Returns the unregister.
   */
  registerUsage(u: CertificateUsage): () => void;
}

/**
 * The SSL area at start: its context (key vault, ACME issuer, certificate usages), its routes,
 * the auto-renewal scheduler, and the handle the mail and web areas use.
 */
export function registerSsl(app: FastifyInstance, deps: AppDeps, opts: SslOptions): SslHandle {
  const db = deps.database.db;
  const vault = SecretVault.open(deps.config.dataDir, VAULT_FILES.sslKeys);
  const ctx: SslContext = {
    deps,
    db,
    vault,
    listCounts: new ListCounts(),
    usages: new CertificateUsages(),
    acme: createAcmeIssuer(deps),
    mailHostname: opts.mailHostname,
    reapplyMail: opts.reapplyMail,
  };
  ctx.usages.register(mailUsage(ctx));
  registerSslRoutes(app, ctx, opts);

  if (opts.scheduler !== false) {
    const stop = startRenewalScheduler(ctx, (err) =>
      app.log.error({ err }, 'certificate renewal check failed'),
    );
    app.addHook('onClose', (_a, done) => {
      stop();
      done();
    });
  }
  return {
    mailTls: mailTlsSource(vault),
    webTls: webTlsSource(vault),
    webPolicy: webTlsPolicySource(),
    ctx,
    bulkOperations: sslBulkOperations(ctx),
    registerUsage: (u) => ctx.usages.register(u),
    count: () => countCertificates(db),
  };
}

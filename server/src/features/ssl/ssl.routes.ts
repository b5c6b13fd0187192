import { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@mailroom/contract/common';
import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import {
  type MailFallbackCertificate,
  SSL_SETTINGS_DEFAULTS,
  sslMessages,
  sslRoutes,
} from '@mailroom/contract/ssl';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppDeps } from '../../app-deps.ts';
import { currentActor } from '../../apply/audit-scope.ts';
import { audited } from './audited.ts';
import { fieldError } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { createAcmeIssuer } from './acme/acme-issuer.ts';
import { registerCertificateFiles } from './certificate-files.routes.ts';
import {
  checkRequestAllowed,
  findByDomain,
  startGeneration,
  startRenewal,
  startRenewExpiring,
} from './certificate-jobs.ts';
import {
  completeCsr,
  createCsr,
  dashboard,
  deleteCertificate,
  getCertificate,
  listCertificates,
  listCsrs,
  uploadCertificate,
} from './certificate.service.ts';
import { dueElsewhere } from './certificate-store.ts';
import { CertificateUsages, mailServedId, mailUsage } from './certificate-usage.ts';
import { mailTlsSource } from './mail-tls.ts';
import { webTlsPolicySource, webTlsSource, type WebTls, type WebTlsPolicy } from './web-tls.ts';
import { SecretVault, VAULT_FILES } from '../../security/secret-vault.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { sslBulkOperations } from './certificate-bulk-ops.service.ts';
import { ListCounts } from './certificate-list.ts';
import { startRenewalScheduler } from './renewal-scheduler.ts';
import type { CertificateUsage, SslContext } from './ssl-context.ts';
import {
  checkSslSettings,
  readSslSettings,
  writeMailCertificate,
  writeSslSettings,
} from './ssl-settings.service.ts';

export interface SslOptions {
  /** The mail server's host name (mail settings). */
  mailHostname: () => Promise<string>;
  /** Re-applies the mail stack (its TLS files and policy come from `SslHandle.mailTls`). */
  reapplyMail: () => Promise<void>;
  /** Re-applies the web server (its TLS policy comes from `SslHandle.webPolicy`). */
  reapplyWeb?: () => Promise<void>;
  /** The mail area's self-signed fallback certificate, served when no stored one is (null: none yet). */
  mailFallback?: () => Promise<MailFallbackCertificate | null>;
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

const yes = (v: string | undefined) => v === 'true' || v === '1';

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
  const r = sslRoutes;
  const accepted = (
    reply: { code(n: number): unknown },
    job: { id: number; state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted' },
    what: string,
  ) => {
    void reply.code(202);
    return { jobId: job.id, state: job.state, message: `${what} started as job ${job.id}` };
  };

  registerRoute(app, r.dashboard, async ({ query }) => dashboard(ctx, query.limit ?? 10));
  registerCertificateFiles(app, ctx);
  registerRoute(app, r.list, async ({ query, reply }) => {
    const page = await listCertificates(ctx, query);
    void reply.header(TOTAL_COUNT_HEADER, String(page.total));
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    if (page.prev) void reply.header(PREV_CURSOR_HEADER, page.prev);
    return page.items;
  });
  registerRoute(app, r.get, async ({ params }) => getCertificate(ctx, params.id));
  registerRoute(app, r.upload, async ({ body }) => uploadCertificate(ctx, body));
  registerRoute(app, r.generate, async ({ body, reply, request }) => {
    if (body.method === 'csr') throw fieldError('method', 'A CSR is made with POST /api/ssl/csr');
    await checkRequestAllowed(ctx, body);
    const job = await startGeneration(ctx, body, currentActor());
    request.auditTarget = body.domain;
    request.auditDetails = { job: job.id, method: body.method };
    return accepted(reply, job, 'Certificate generation');
  });
  registerRoute(app, r.createCsr, async ({ body }) => {
    await checkRequestAllowed(ctx, { ...body, method: 'csr' });
    return createCsr(ctx, body);
  });
  registerRoute(app, r.listCsrs, async () => listCsrs(ctx));
  registerRoute(app, r.completeCsr, async ({ params, body }) => completeCsr(ctx, params.id, body));
  registerRoute(app, r.renew, async ({ params, reply }) =>
    accepted(reply, await startRenewal(ctx, params.id, currentActor()), 'Renewal'),
  );
  registerRoute(app, r.renewByDomain, async ({ body, reply }) =>
    accepted(reply, await startRenewal(ctx, await findByDomain(ctx, body.domain), currentActor()), 'Renewal'),
  );
  registerRoute(app, r.renewExpiring, async ({ reply, request }) => {
    const job = await startRenewExpiring(ctx, currentActor(), false);
    if (!job) {
      const outside = await dueElsewhere(db, (await readSslSettings(db)).settings.renewalThreshold);
      return {
        jobId: null,
        message: outside.length ? sslMessages.onlyOutsideRenewals(outside) : sslMessages.noneExpiring,
      };
    }
    request.auditDetails = { job: job.id };
    void reply.code(202);
    return { jobId: job.id, message: `Renewal of expiring certificates started as job ${job.id}` };
  });
  registerRoute(app, r.remove, async ({ params, query }) => {
    await deleteCertificate(ctx, params.id, yes(query.confirm));
    return { success: true as const, message: 'Certificate deleted' };
  });

  const settingsAnswer = async () => {
    const s = await readSslSettings(db);
    return { settings: s.settings, version: s.version, defaults: SSL_SETTINGS_DEFAULTS };
  };
  registerRoute(app, r.getSettings, settingsAnswer);
  registerRoute(app, r.saveSettings, async ({ body }) => {
    checkSslSettings(body.settings);
    const before = await readSslSettings(db);
    await audited(db, async (trx, audit) => {
      await writeSslSettings(trx, body.settings, body.version, before.settings);
      await audit({ before: before.settings, after: body.settings, details: { version: body.version + 1 } });
    });
    // The TLS policy reaches Postfix and Dovecot through the mail apply (only changed files reload).
    await opts.reapplyMail();
    await opts.reapplyWeb?.();
    return settingsAnswer();
  });

  const mailState = async () => ({
    certificateId: (await readSslSettings(db)).mailCertificateId,
    servedId: await mailServedId(ctx),
    hostname: await opts.mailHostname(),
    fallback: (await opts.mailFallback?.()) ?? null,
  });
  registerRoute(app, r.getMailCertificate, mailState);
  registerRoute(app, r.setMailCertificate, async ({ body }) => {
    if (body.certificateId !== null) {
      const row = await db
        .selectFrom('ssl_certificates')
        .select('id')
        .where('id', '=', body.certificateId)
        .executeTakeFirst();
      if (!row) throw fieldError('certificateId', `No certificate with id ${body.certificateId}`);
    }
    await audited(db, async (trx, audit) => {
      await writeMailCertificate(trx, body.certificateId);
      await audit({
        target: body.certificateId === null ? 'host name' : `certificate ${body.certificateId}`,
      });
    });
    await opts.reapplyMail();
    return mailState();
  });

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
    count: async () =>
      Number(
        (
          await db
            .selectFrom('ssl_certificates')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

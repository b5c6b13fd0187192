import { NEXT_CURSOR_HEADER, PREV_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@mailroom/contract/common';
import {
  type MailFallbackCertificate,
  SSL_SETTINGS_DEFAULTS,
  type SslSettings,
  sslMessages,
  sslRoutes,
} from '@mailroom/contract/ssl';
import type { FastifyInstance } from 'fastify';
import { currentActor } from '../../apply/audit-scope.ts';
import { fieldError } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { registerCertificateFiles } from './certificate-files.routes.ts';
import {
  checkRequestAllowed,
  findByDomain,
  startGeneration,
  startRenewal,
  startRenewExpiring,
} from './certificate-jobs.service.ts';
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
import { mailServedId } from './certificate-usage.service.ts';
import type { SslContext } from './ssl-context.types.ts';
import {
  chooseMailCertificate,
  readSslSettings,
  renewalsElsewhere,
  saveSslSettings,
} from './ssl-settings.service.ts';

export interface SslRouteOptions {
  /** The mail server's host name (mail settings). */
  mailHostname: () => Promise<string>;
  /** Re-applies the mail stack (its TLS files and policy come from `SslHandle.mailTls`). */
  reapplyMail: () => Promise<void>;
  /** Re-applies the web server (its TLS policy comes from `SslHandle.webPolicy`). */
  reapplyWeb?: () => Promise<void>;
  /** What the web server cannot honour of these settings (field -> refusal), asked before saving. */
  webRefusals?: (s: SslSettings) => Promise<Record<string, string>>;
  /** The mail area's self-signed fallback certificate, served when no stored one is (null: none yet). */
  mailFallback?: () => Promise<MailFallbackCertificate | null>;
}

const yes = (v: string | undefined) => v === 'true' || v === '1';

/** The SSL area's HTTP routes: request -> service -> answer. */
export function registerSslRoutes(app: FastifyInstance, ctx: SslContext, opts: SslRouteOptions): void {
  const db = ctx.db;
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
      const outside = await renewalsElsewhere(db);
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
    const refused = Object.entries((await opts.webRefusals?.(body.settings)) ?? {})[0];
    if (refused) throw fieldError(`settings.${refused[0]}`, refused[1]);
    await saveSslSettings(db, body.settings, body.version);
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
    await chooseMailCertificate(db, body.certificateId);
    await opts.reapplyMail();
    return mailState();
  });
}

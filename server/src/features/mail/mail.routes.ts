import { MAX_ALIAS_IMPORT_BYTES, mailRoutes } from '@mailroom/contract/mail';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { mailBulkOperations } from './mail-bulk-ops.service.ts';
import { JOB_IMPORT_ROWS, JOB_KINDS, JOB_MAILBOX_IMPORT_ROWS } from '@mailroom/contract/jobs';
import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { assertApplied } from '../../apply/pipeline.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import { observeDaemons } from '../../host/local-services.ts';
import { domainScope, NOT_ALLOWED_MESSAGE } from '../../http/access-scope.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { sendPage } from '../../http/list-headers.ts';
import { csvDataLines } from '../../lib/progress.ts';
import { type ImportOutcome, importAliases } from './alias-import.service.ts';
import { createAlias, listAliases, removeAlias, removeAliases, updateAlias } from './alias.service.ts';
import { ensureDkimKeys, listDkimRecords } from './dkim.service.ts';
import { addDomain, listDomains, removeDomain } from './domain.service.ts';
import {
  applyMailCommitted,
  dnsFactsMoved,
  SAVE_STEP,
  SaveSteps,
  saveMailSettings,
  setMailTlsSource,
} from './mail-apply.ts';
import { mailContext } from './mail-context.ts';
import { registerMailExports } from './mail-export.routes.ts';
import { mailDashboard, mailLogs } from './mail-dashboard.service.ts';
import { mailDbConn } from './mail-db-conn.ts';
import { bulkMailboxes } from './mailbox-bulk.service.ts';
import { type MailboxImportOutcome, importMailboxes } from './mailbox-import.service.ts';
import { alignVirusScanDefault, readMailSettings, settingsResponse } from './mail-settings.service.ts';
import { type FallbackCertificate, readFallbackCertificate } from './mail-stack.ts';
import { type FilterTarget, mailFilterStatus, virusScanSupport } from './mail-filter.ts';
import {
  changePassword,
  changeQuota,
  createMailbox,
  listMailboxes,
  purgeMailbox,
  removeMailbox,
  setMailboxStatus,
} from './mailbox.service.ts';

export interface MailOptions {
  /**
   * Called when what DNS derives from the mail area may have moved for these domains (a domain
   * came or went, a DKIM key appeared) or for every mail domain ('all': the settings' hostname, MX,
   * SPF, DMARC or DKIM switch changed). Never called for a password, quota or status change.
   */
  onDnsFactsChanged?: (domains: string[] | 'all') => Promise<void>;
  /** The SSL area's certificate for the mail host and its TLS policy (absent: a self-signed one). */
  tls?: MailTlsSource<Kysely<Database>>;
}

/** What other areas may ask of the mail area (wired in app.ts). */
export interface MailHandle {
  /** The mail server's host name from the saved settings. */
  hostname(): Promise<string>;
  /** Renders and applies the mail stack again (the served certificate or TLS policy changed). */
  reapply(): Promise<void>;
  /** Create mailboxes, delete mailboxes, create aliases for the bulk operations (issue 21). */
  bulkOperations: BulkOperationHandler[];
  /** Mailroom's self-signed fallback certificate, served when the SSL area serves none. */
  fallbackCertificate(): Promise<FallbackCertificate | null>;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

export function registerMail(app: FastifyInstance, deps: AppDeps, opts: MailOptions = {}): MailHandle {
  setMailTlsSource(deps, opts.tls);
  const ctx = mailContext(deps);
  const { db } = ctx;
  const { host } = deps;
  const conn = mailDbConn(deps.database, deps.config.mailDbUrl);
  const filter: FilterTarget = { milterPort: deps.config.ports.milter, dnsPort: deps.config.ports.dns };
  const respond = async (stored: Awaited<ReturnType<typeof readMailSettings>>) =>
    settingsResponse(stored, await mailFilterStatus(host, stored.settings, filter, deps.services));

  /** Answers whether DNS republished (false: it failed, and the log says why). */
  const factsChanged = async (domains: string[] | 'all'): Promise<boolean> => {
    if (domains !== 'all' && !domains.length) return true;
    // The mail change stands; a zone DNS refuses is reported on the DNS status, not here.
    return (opts.onDnsFactsChanged?.(domains) ?? Promise.resolve()).then(
      () => true,
      (err: unknown) => {
        app.log.error({ err }, 'DNS republish failed');
        return false;
      },
    );
  };
  // DKIM keys take a while each (2048-bit RSA): made one job at a time, after the change that
  // needs them; their files go live through the apply pipeline (only the new key file and the
  // tables change), then DNS republishes the zones of these domains only. close() waits.
  let dkimJob: Promise<void> = Promise.resolve();
  const scheduleDkim = (domains: string[]): Promise<void> => {
    dkimJob = dkimJob
      .then(async () => {
        const { settings, problem } = await readMailSettings(db);
        // One process at a time makes keys (a cluster's workers share the key folder).
        const makeKeys = () => ensureDkimKeys(db, host);
        const keyed =
          !problem && settings.enableDKIM
            ? await (deps.locks ? deps.locks.withLock('mail.dkim', makeKeys) : makeKeys())
            : [];
        if (keyed.length) {
          const r = await applyMailCommitted(deps, conn);
          if (r.outcome.state !== 'applied')
            app.log.warn({ outcome: r.outcome }, 'DKIM files not applied; last good files kept');
        }
        await factsChanged([...new Set([...domains, ...keyed])]);
      })
      .catch((err: unknown) => app.log.error({ err }, 'DKIM key generation failed'));
    return dkimJob;
  };
  // The mail server's files are rendered at start with the saved (or default) settings. This
  // runs beside the start (a slow checker must not hold the app back); reading or saving the
  // settings waits for it, and close() lets it finish.
  let startup: Promise<void> = Promise.resolve();
  registerRetry(deps, 'mail', async () => {
    await startup;
    const r = await applyMailCommitted(deps, conn);
    assertApplied(r.outcome);
    return r.outcome;
  });
  app.addHook('onReady', async () => {
    startup = (async () => {
      try {
        await alignVirusScanDefault(db, (await virusScanSupport(host)).available);
        const r = await applyMailCommitted(deps, conn);
        if (r.outcome.state !== 'applied')
          app.log.warn(
            { outcome: r.outcome },
            'mail configuration not applied at start; last good files kept',
          );
      } catch (err) {
        app.log.error({ err }, 'could not render the mail configuration at start');
      }
      void scheduleDkim([]);
    })();
  });
  app.addHook('onClose', async () => {
    await startup;
    await dkimJob;
  });

  void app.register(async (scope) => {
    // The alias import's body is the CSV itself.
    scope.addContentTypeParser(
      ['text/csv', 'application/csv'],
      { parseAs: 'string', bodyLimit: MAX_ALIAS_IMPORT_BYTES },
      (_req, body, done) => done(null, body),
    );

    registerMailExports(scope, db);

    registerRoute(scope, mailRoutes.listMailboxes, async ({ query, reply, request }) => {
      return sendPage(reply, await listMailboxes(db, query, domainScope(request)));
    });

    registerRoute(scope, mailRoutes.createMailbox, async ({ body, request }) => {
      request.auditTarget = body.email;
      request.auditDetails = { quota: body.quota, ...(body.createDomain ? { createDomain: true } : {}) };
      // Adding a mail domain is an administrator's call.
      if (body.createDomain && domainScope(request) !== null) throw forbidden(NOT_ALLOWED_MESSAGE);
      const { newDomain } = await createMailbox(ctx, body);
      if (newDomain) await scheduleDkim([domainOf(body.email)]);
      return { success: true as const, message: `Mailbox ${body.email} created` };
    });

    registerRoute(scope, mailRoutes.bulkMailboxes, async ({ body }) => {
      const r = await bulkMailboxes(ctx, body.action, body.emails);
      await factsChanged(r.domains);
      return { success: true as const, changed: r.changed, ...(r.movedTo ? { movedTo: r.movedTo } : {}) };
    });

    registerRoute(scope, mailRoutes.importMailboxes, async ({ query, body, request, reply }) => {
      const opts = { dryRun: query.dryRun, createDomains: query.createDomains };
      const answer = (o: MailboxImportOutcome) => {
        if (o.newDomains.length && !o.dryRun) void scheduleDkim(o.newDomains);
        return {
          imported: o.imported,
          skipped: o.skipped,
          errors: o.errors,
          dryRun: o.dryRun,
          newDomains: o.newDomains,
        };
      };
      // Every password is hashed: a file of more than a few dozen rows runs as a job.
      if (deps.jobs && csvDataLines(body) > JOB_MAILBOX_IMPORT_ROWS) {
        const title = query.dryRun ? 'Mailbox import check' : 'Mailbox import';
        const job = await deps.jobs.run(
          JOB_KINDS.mailboxImport,
          title,
          request.admin?.email ?? null,
          async (jobCtx) => {
            const result = answer(await importMailboxes(ctx, body, opts, jobCtx));
            return {
              result,
              counts: { imported: result.imported, skipped: result.skipped, errors: result.errors.length },
              errors: result.errors,
              summary: `${result.imported} created, ${result.skipped} skipped, ${result.errors.length} refused`,
            };
          },
        );
        request.auditTarget = `job ${job.id}`;
        request.auditDetails = { job: job.id, ...opts };
        void reply.code(202);
        return { jobId: job.id, state: job.state, message: `Import started as job ${job.id}` };
      }
      const outcome = await importMailboxes(ctx, body, opts);
      request.auditTarget = `${outcome.imported} mailboxes`;
      request.auditDetails = {
        imported: outcome.imported,
        skipped: outcome.skipped,
        errors: outcome.errors.length,
        newDomains: outcome.newDomains,
        ...opts,
      };
      return answer(outcome);
    });

    registerRoute(scope, mailRoutes.removeMailbox, async ({ params, request }) => {
      const { movedTo, domainGone } = await removeMailbox(ctx, params.email);
      request.auditDetails = { movedTo };
      // The zone changes only when the domain went (its MX/SPF/DMARC/DKIM records with it).
      if (domainGone) await factsChanged([domainOf(params.email)]);
      return { success: true as const, movedTo };
    });

    registerRoute(scope, mailRoutes.changePassword, async ({ params, body }) => {
      await changePassword(ctx, params.email, body.password);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.changeQuota, async ({ params, body, request }) => {
      request.auditDetails = { quota: body.quota };
      await changeQuota(ctx, params.email, body.quota);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.suspendMailbox, async ({ params }) => {
      await setMailboxStatus(ctx, params.email, 'suspended');
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.resumeMailbox, async ({ params }) => {
      await setMailboxStatus(ctx, params.email, 'active');
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.purgeMailbox, async ({ params, request }) => {
      const removed = await purgeMailbox(ctx, params.email);
      request.auditDetails = { removed };
      return { success: true as const, removed };
    });

    registerRoute(scope, mailRoutes.listAliases, async ({ query, reply, request }) => {
      return sendPage(reply, await listAliases(db, query, domainScope(request)));
    });

    registerRoute(scope, mailRoutes.createAlias, async ({ body, request }) => {
      request.auditTarget = body.source;
      request.auditDetails = {
        destination: body.destination,
        ...(body.createDomain ? { createDomain: true } : {}),
      };
      if (body.createDomain && domainScope(request) !== null) throw forbidden(NOT_ALLOWED_MESSAGE);
      const { newDomain } = await createAlias(db, body);
      if (newDomain) await scheduleDkim([domainOf(body.source)]);
      return { success: true as const, message: `Alias ${body.source} created` };
    });

    registerRoute(scope, mailRoutes.removeAlias, async ({ params }) => {
      const { domainGone } = await removeAlias(db, params.source);
      // The zone changes only when the domain went: every removal republished it (4 of the
      // 4.3 ms CPU of a removal at 5,000 aliases, a cross-process apply lock each).
      if (domainGone) await factsChanged([domainOf(params.source)]);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.removeAliases, async ({ body }) => {
      const r = await removeAliases(db, body.sources);
      await factsChanged(r.domainsGone);
      return { success: true as const, removed: r.removed };
    });

    registerRoute(scope, mailRoutes.updateAlias, async ({ params, body, request }) => {
      request.auditDetails = { ...body };
      await updateAlias(db, params.source, body);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.importAliases, async ({ query, body, request, reply }) => {
      const answer = (outcome: ImportOutcome) => {
        // Many new domains can mean many keys: the answer does not wait for them.
        if (outcome.newDomains.length && !outcome.dryRun) void scheduleDkim(outcome.newDomains);
        return {
          imported: outcome.imported,
          skipped: outcome.skipped,
          errors: outcome.errors,
          dryRun: outcome.dryRun,
          newDomains: outcome.newDomains,
        };
      };
      // A large file runs as a job: 202 with its id, progress on /api/events.
      if (deps.jobs && csvDataLines(body) > JOB_IMPORT_ROWS) {
        const title = query.dryRun ? 'Alias import check' : 'Alias import';
        const job = await deps.jobs.run(
          JOB_KINDS.aliasImport,
          title,
          request.admin?.email ?? null,
          async (ctx) => {
            const result = answer(await importAliases(db, body, query.dryRun, ctx, query.createDomains));
            const counts = {
              imported: result.imported,
              skipped: result.skipped,
              errors: result.errors.length,
            };
            return {
              result,
              counts,
              errors: result.errors,
              summary: `${result.imported} imported, ${result.skipped} skipped, ${result.errors.length} refused`,
            };
          },
        );
        request.auditTarget = `job ${job.id}`;
        request.auditDetails = { job: job.id, dryRun: query.dryRun };
        void reply.code(202);
        return { jobId: job.id, state: job.state, message: `Import started as job ${job.id}` };
      }
      const outcome = await importAliases(db, body, query.dryRun, undefined, query.createDomains);
      request.auditTarget = `${outcome.imported} aliases`;
      request.auditDetails = {
        imported: outcome.imported,
        skipped: outcome.skipped,
        errors: outcome.errors.length,
        dryRun: outcome.dryRun,
      };
      return answer(outcome);
    });

    registerRoute(scope, mailRoutes.listDomains, async ({ request }) => {
      const only = domainScope(request);
      const all = await listDomains(db);
      return only === null ? all : all.filter((d) => only.includes(d.domain));
    });

    registerRoute(scope, mailRoutes.addDomain, async ({ body, request }) => {
      request.auditTarget = body.domain;
      if (await addDomain(db, body.domain)) await scheduleDkim([body.domain.toLowerCase()]);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.removeDomain, async ({ params }) => {
      await removeDomain(db, params.domain);
      await factsChanged([params.domain.toLowerCase()]);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.getSettings, async () => {
      await startup;
      return respond(await readMailSettings(db));
    });

    registerRoute(scope, mailRoutes.saveSettings, async ({ body }) => {
      await startup;
      const before = await readMailSettings(db);
      // The save's steps as they ran go with its answer, refused or not (issue 22 #17).
      const steps = new SaveSteps();
      const withSteps = (err: unknown) => {
        if (err instanceof AppError && err.details && typeof err.details === 'object')
          Object.assign(err.details, { steps: steps.steps });
        return err;
      };
      let r;
      try {
        r = await saveMailSettings(deps, conn, body.settings, body.version, steps);
      } catch (err) {
        throw withSteps(err);
      }
      // Saved: DNS follows even when the files did not go live (they are retried, the zones are not).
      if (before.problem || dnsFactsMoved(before.settings, body.settings)) {
        steps.start(SAVE_STEP.dns);
        const published = await factsChanged('all');
        steps.end(SAVE_STEP.dns, published ? 'passed' : 'failed', published ? '' : 'See the DNS status.');
      }
      // DKIM just turned on: keys for every domain, then their files.
      if (body.settings.enableDKIM) void scheduleDkim([]);
      try {
        assertApplied(r.outcome);
      } catch (err) {
        throw withSteps(err);
      }
      return { ...(await respond(await readMailSettings(db))), steps: steps.steps };
    });

    registerRoute(scope, mailRoutes.dashboard, async () =>
      mailDashboard(
        db,
        () => deps.services?.states() ?? observeDaemons(host, deps.config),
        async () => {
          const { settings } = await readMailSettings(db);
          return mailFilterStatus(host, settings, filter, deps.services);
        },
      ),
    );

    registerRoute(scope, mailRoutes.logs, async ({ query }) => mailLogs(host, query.lines ?? 200));

    registerRoute(scope, mailRoutes.dkim, async () => listDkimRecords(db));
  });
  return {
    bulkOperations: mailBulkOperations(ctx, async (d) => void (await factsChanged(d))),
    hostname: async () => (await readMailSettings(db)).settings.hostname,
    fallbackCertificate: async () => {
      await startup;
      return readFallbackCertificate(host);
    },
    async reapply() {
      await startup;
      const r = await applyMailCommitted(deps, conn);
      assertApplied(r.outcome);
    },
  };
}

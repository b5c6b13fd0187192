import { MAX_ALIAS_IMPORT_BYTES, type MailSettings, mailRoutes } from '@mailroom/contract/mail';
import { JOB_IMPORT_ROWS, JOB_KINDS, JOB_MAILBOX_IMPORT_ROWS } from '@mailroom/contract/jobs';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { domainScope, NOT_ALLOWED_MESSAGE } from '../../http/access-scope.ts';
import { forbidden } from '../../http/errors.ts';
import { runImport } from '../jobs/jobs.public.ts';
import { registerRoute } from '../../http/register-route.ts';
import { sendPage } from '../../http/list-headers.ts';
import { importAliases } from './aliases/alias-import.service.ts';
import {
  createAlias,
  listAliases,
  removeAlias,
  removeAliases,
  updateAlias,
} from './aliases/alias.service.ts';
import { listDkimRecords } from './domains/dkim.service.ts';
import { addDomain, listDomains, removeDomain } from './domains/domain.service.ts';
import { registerMailExports } from './export/mail-export.routes.ts';
import { mailLogs } from './mail-dashboard.service.ts';
import type { MailCtx } from './mail.context.ts';
import type { mailDashboard } from './mail-dashboard.service.ts';
import type { settingsResponse } from './settings/mail-settings.service.ts';
import { bulkMailboxes } from './bulk/mailbox-bulk.service.ts';
import { importMailboxes } from './mailboxes/mailbox-import.service.ts';
import {
  changePassword,
  changeQuota,
  createMailbox,
  listMailboxes,
  purgeMailbox,
  removeMailbox,
  setMailboxStatus,
} from './mailboxes/mailbox.service.ts';

/** What the mail routes call beyond the entity services (made in mail.module.ts): the area's lifecycle-bound work. */
export interface MailRuntime {
  ctx: MailCtx;
  /** DNS republishes these domains' zones (or every mail zone); a failure is logged, never thrown. */
  factsChanged: (domains: string[] | 'all') => Promise<void>;
  /** Queues DKIM keys for these domains (and any other domain without one), then their files and DNS. */
  scheduleDkim: (domains: string[]) => Promise<void>;
  /** The settings' answer (with the filter's status), once the start's apply is done. */
  settings(): Promise<Awaited<ReturnType<typeof settingsResponse>>>;
  /**
   * Saves the settings, applies them, republishes DNS when its facts moved, queues DKIM keys.
   * `saveId`: the steps are sent on the events stream under this id as they change.
   */
  saveSettings(settings: MailSettings, version: number, saveId?: string): ReturnType<MailRuntime['settings']>;
  dashboard(): ReturnType<typeof mailDashboard>;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The mail area's HTTP routes (the wiring behind them is in mail.module.ts). */
export function registerMailRoutes(app: FastifyInstance, deps: AppDeps, mail: MailRuntime): void {
  const { ctx, factsChanged, scheduleDkim } = mail;
  const { db } = ctx;
  /** New domains from an import get their DKIM keys after the answer (many domains, many keys). */
  const keyNewDomains = <O extends { newDomains: string[]; dryRun: boolean }>(o: O): O => {
    if (o.newDomains.length && !o.dryRun) void scheduleDkim(o.newDomains);
    return o;
  };

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

    // Every password is hashed: a file of more than a few dozen rows runs as a job.
    registerRoute(scope, mailRoutes.importMailboxes, async ({ query, body, request, reply }) => {
      const opts = { dryRun: query.dryRun, createDomains: query.createDomains };
      return runImport(deps, request, reply, {
        csv: body,
        jobAbove: JOB_MAILBOX_IMPORT_ROWS,
        kind: JOB_KINDS.mailboxImport,
        title: query.dryRun ? 'Mailbox import check' : 'Mailbox import',
        work: async (job) => {
          const o = keyNewDomains(await importMailboxes(ctx, body, opts, job));
          return {
            imported: o.imported,
            skipped: o.skipped,
            errors: o.errors,
            dryRun: o.dryRun,
            newDomains: o.newDomains,
          };
        },
        summary: (r) => `${r.imported} created, ${r.skipped} skipped, ${r.errors.length} refused`,
        jobAudit: opts,
        inlineAudit: (r) => ({
          target: `${r.imported} mailboxes`,
          details: {
            imported: r.imported,
            skipped: r.skipped,
            errors: r.errors.length,
            newDomains: r.newDomains,
            ...opts,
          },
        }),
      });
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

    // A large file runs as a job: 202 with its id, progress on /api/events.
    registerRoute(scope, mailRoutes.importAliases, async ({ query, body, request, reply }) => {
      return runImport(deps, request, reply, {
        csv: body,
        jobAbove: JOB_IMPORT_ROWS,
        kind: JOB_KINDS.aliasImport,
        title: query.dryRun ? 'Alias import check' : 'Alias import',
        work: async (job) => {
          const o = keyNewDomains(await importAliases(db, body, query.dryRun, job, query.createDomains));
          return {
            imported: o.imported,
            skipped: o.skipped,
            errors: o.errors,
            dryRun: o.dryRun,
            newDomains: o.newDomains,
          };
        },
        summary: (r) => `${r.imported} imported, ${r.skipped} skipped, ${r.errors.length} refused`,
        jobAudit: { dryRun: query.dryRun },
        inlineAudit: (r) => ({
          target: `${r.imported} aliases`,
          details: { imported: r.imported, skipped: r.skipped, errors: r.errors.length, dryRun: r.dryRun },
        }),
      });
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

    registerRoute(scope, mailRoutes.getSettings, async () => mail.settings());

    registerRoute(scope, mailRoutes.saveSettings, async ({ body }) =>
      mail.saveSettings(body.settings, body.version, body.saveId),
    );

    registerRoute(scope, mailRoutes.dashboard, async () => mail.dashboard());

    registerRoute(scope, mailRoutes.logs, async ({ query }) => mailLogs(deps.host, query.lines ?? 200));

    registerRoute(scope, mailRoutes.dkim, async () => listDkimRecords(db));
  });
}

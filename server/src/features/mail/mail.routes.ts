import { TOTAL_COUNT_HEADER } from '@mailroom/contract/common';
import { MAX_ALIAS_IMPORT_BYTES, mailRoutes } from '@mailroom/contract/mail';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { observeDaemons } from '../../host/local-services.ts';
import { AppError, checkFailed, conflict } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { importAliases } from './alias-import.service.ts';
import { createAlias, listAliases, removeAlias, updateAlias } from './alias.service.ts';
import { listDkimRecords, refreshDkim } from './dkim.service.ts';
import { addDomain, listDomains, removeDomain } from './domain.service.ts';
import { mailContext } from './mail-context.ts';
import { mailDashboard, mailLogs } from './mail-dashboard.service.ts';
import { mailDbConn } from './mail-db-conn.ts';
import {
  readMailSettings,
  recordApply,
  settingsResponse,
  staleMessage,
  writeMailSettings,
} from './mail-settings.service.ts';
import { type ApplyResult, applyMailStack } from './mail-stack.ts';
import {
  changePassword,
  changeQuota,
  createMailbox,
  listMailboxes,
  purgeMailbox,
  removeMailbox,
  setMailboxStatus,
} from './mailbox.service.ts';

const CHECK_FAILED_MESSAGE =
  'The mail server rejected the new configuration; the previous files are still in place.';

export interface MailOptions {
  /** Called after new DKIM keys may exist, so DNS can publish them. */
  onDnsFactsChanged?: () => Promise<void>;
}

export function registerMail(app: FastifyInstance, deps: AppDeps, opts: MailOptions = {}): void {
  const ctx = mailContext(deps);
  const { db } = ctx;
  const { host } = deps;
  const conn = mailDbConn(deps.database);

  // DKIM keys take a while each (2048-bit RSA): made one job at a time, after the change that
  // needs them; close() waits for a running job.
  let dkimJob: Promise<void> = Promise.resolve();
  const scheduleDkim = (): Promise<void> => {
    dkimJob = dkimJob
      .then(async () => {
        const { settings } = await readMailSettings(db);
        await refreshDkim(db, host, settings.enableDKIM);
        await opts.onDnsFactsChanged?.();
      })
      .catch((err: unknown) => app.log.error({ err }, 'DKIM key generation failed'));
    return dkimJob;
  };
  // The mail server's files are rendered at start with the saved (or default) settings. This
  // runs beside the start (a slow checker must not hold the app back); reading or saving the
  // settings waits for it, and close() lets it finish.
  let startup: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    startup = (async () => {
      try {
        const { settings } = await readMailSettings(db);
        const r = await applyMailStack(db, host, conn, settings);
        await recordApply(db, r.check, r.ok);
        if (!r.ok)
          app.log.warn({ check: r.check }, 'mail configuration check failed at start; last good files kept');
      } catch (err) {
        app.log.error({ err }, 'could not render the mail configuration at start');
      }
      void scheduleDkim();
    })();
  });
  app.addHook('onClose', async () => {
    await startup;
    await dkimJob;
  });

  void app.register(async (scope) => {
    // The alias import's body is the CSV itself.
    scope.addContentTypeParser(
      ['text/csv', 'text/plain', 'application/csv'],
      { parseAs: 'string', bodyLimit: MAX_ALIAS_IMPORT_BYTES },
      (_req, body, done) => done(null, body),
    );

    registerRoute(scope, mailRoutes.listMailboxes, async ({ query, reply }) => {
      const page = await listMailboxes(db, query);
      void reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.items;
    });

    registerRoute(scope, mailRoutes.createMailbox, async ({ body, request }) => {
      request.auditTarget = body.email;
      request.auditDetails = { quota: body.quota };
      const { newDomain } = await createMailbox(ctx, body);
      if (newDomain) await scheduleDkim();
      return { success: true as const, message: `Mailbox ${body.email} created` };
    });

    registerRoute(scope, mailRoutes.removeMailbox, async ({ params, request }) => {
      const { movedTo } = await removeMailbox(ctx, params.email);
      request.auditDetails = { movedTo };
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

    registerRoute(scope, mailRoutes.listAliases, async ({ query, reply }) => {
      const page = await listAliases(db, query);
      void reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.items;
    });

    registerRoute(scope, mailRoutes.createAlias, async ({ body, request }) => {
      request.auditTarget = body.source;
      request.auditDetails = { destination: body.destination };
      const { newDomain } = await createAlias(db, body);
      if (newDomain) await scheduleDkim();
      return { success: true as const, message: `Alias ${body.source} created` };
    });

    registerRoute(scope, mailRoutes.removeAlias, async ({ params }) => {
      await removeAlias(db, params.source);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.updateAlias, async ({ params, body, request }) => {
      request.auditDetails = { ...body };
      await updateAlias(db, params.source, body);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.importAliases, async ({ query, body, request }) => {
      const outcome = await importAliases(db, body, query.dryRun);
      request.auditTarget = `${outcome.imported} aliases`;
      request.auditDetails = {
        imported: outcome.imported,
        skipped: outcome.skipped,
        errors: outcome.errors.length,
        dryRun: outcome.dryRun,
      };
      // Many new domains can mean many keys: the answer does not wait for them.
      if (outcome.newDomains.length) void scheduleDkim();
      return {
        imported: outcome.imported,
        skipped: outcome.skipped,
        errors: outcome.errors,
        dryRun: outcome.dryRun,
      };
    });

    registerRoute(scope, mailRoutes.listDomains, async () => listDomains(db));

    registerRoute(scope, mailRoutes.addDomain, async ({ body, request }) => {
      request.auditTarget = body.domain;
      if (await addDomain(db, body.domain)) await scheduleDkim();
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.removeDomain, async ({ params }) => {
      await removeDomain(db, params.domain);
      return { success: true as const };
    });

    registerRoute(scope, mailRoutes.getSettings, async () => {
      await startup;
      return settingsResponse(await readMailSettings(db));
    });

    registerRoute(scope, mailRoutes.saveSettings, async ({ body, request }) => {
      await startup;
      const current = await readMailSettings(db);
      if (body.version !== current.version) throw conflict(staleMessage, { version: current.version });
      request.auditDetails = { version: body.version + 1 };
      let result: ApplyResult | null = null;
      try {
        await db.transaction().execute(async (trx) => {
          if (!(await writeMailSettings(trx, body.settings, body.version))) {
            throw conflict(staleMessage, { version: (await readMailSettings(trx)).version });
          }
          result = await applyMailStack(trx, host, conn, body.settings);
          if (!result.ok) throw checkFailed(CHECK_FAILED_MESSAGE, result.check?.output ?? '');
          await recordApply(trx, result.check, true);
        });
      } catch (err) {
        const r = result as ApplyResult | null;
        if (err instanceof AppError && r && !r.ok) await recordApply(db, r.check, false);
        throw err;
      }
      // DKIM just turned on: keys for every domain, then their files.
      if (body.settings.enableDKIM) void scheduleDkim();
      return settingsResponse(await readMailSettings(db));
    });

    registerRoute(scope, mailRoutes.dashboard, async () =>
      mailDashboard(db, () => deps.services?.states() ?? observeDaemons(host, deps.config)),
    );

    registerRoute(scope, mailRoutes.logs, async ({ query }) => mailLogs(host, query.lines ?? 200));

    registerRoute(scope, mailRoutes.dkim, async () => listDkimRecords(db));
  });
}

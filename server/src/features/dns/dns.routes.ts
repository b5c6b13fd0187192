import { dnsRoutes } from '@mailroom/contract/dns';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { dnsBulkOperations } from './record-bulk-ops.service.ts';
import type { MailDnsFactsProvider } from '@mailroom/contract/mail-dns';
import { JOB_IMPORT_ROWS, JOB_KINDS } from '@mailroom/contract/jobs';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, DnsChallenges } from '../../app-deps.ts';
import { domainScope } from '../../http/access-scope.ts';
import { registerRoute } from '../../http/register-route.ts';
import { sendPage } from '../../http/list-headers.ts';
import { readOutcome } from '../../apply/outcome.repository.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import { csvDataLines } from '../../lib/progress.ts';
import { bindLayout } from './bind-layout.ts';
import { dnsChallenges } from './dns-challenge.service.ts';
import type { DnsContext } from './dns-context.ts';
import { dashboard, systemRecords } from './dns-overview.service.ts';
import { applyAll, getSettingsState, republishMailZones, saveSettings } from './dns-settings.actions.ts';
import { readStatus } from './dns-status.service.ts';
import { registerRecordExport } from './record-export.routes.ts';
import { importRecords } from './record-import.service.ts';
import {
  addRecord,
  deleteRecord,
  deleteRecords,
  listRecords,
  removeRecordByName,
  updateRecord,
} from './record.service.ts';
import { createZone, getZone, listZones, readZoneFile, removeZone, updateZone } from './zone.service.ts';

export interface DnsOptions {
  /** The mail area's facts, for the derived MX/SPF/DKIM/DMARC/autoconfig records. */
  mailFacts?: MailDnsFactsProvider;
  /** The SSL area's certificate count (dashboard). */
  sslCount?: () => Promise<number>;
  /** Addresses the rendered named.conf listens on; `any` by default. */
  listenOn?: string[];
}

/** CSV imports may be large; JSON bodies keep the app's default limit. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

const yes = (v: string | undefined) => v === '1' || v === 'true';

export interface DnsHandle {
  /** Re-render these mail domains' zones (or all) after a mail change that moved their records. */
  republishMailZones(domains?: string[] | 'all'): Promise<void>;
  /** ACME DNS-01 through Mailroom's own zones (wired into AppDeps by app.ts). */
  challenges: DnsChallenges;
  /** Create and update DNS records for the bulk operations (issue 21). */
  bulkOperations: BulkOperationHandler[];
}

export function registerDns(app: FastifyInstance, deps: AppDeps, opts: DnsOptions = {}): DnsHandle {
  const ctx: DnsContext = {
    deps,
    layout: bindLayout(
      deps.host,
      // Local mode under Mailroom's supervisor: named on loopback at MAILROOM_DNS_PORT.
      deps.services?.mode === 'local'
        ? { listenOn: opts.listenOn ?? ['127.0.0.1'], port: deps.config.ports.dns }
        : opts.listenOn
          ? { listenOn: opts.listenOn }
          : {},
    ),
    mailFacts: opts.mailFacts,
    sslCount: opts.sslCount,
  };
  const db = deps.database.db;
  const r = dnsRoutes;

  registerRoute(app, r.dashboard, async ({ query }) => dashboard(ctx, query.limit ?? 10));
  registerRoute(app, r.status, async () => readStatus(db));
  // Retry of a DNS change saved but not live: the same as Apply (every zone and named.conf).
  registerRetry(deps, 'dns', async () => {
    await applyAll(ctx);
    const outcome = await readOutcome(db, 'dns');
    if (!outcome) throw new Error('the DNS apply recorded no outcome');
    return outcome;
  });
  registerRoute(app, r.apply, async () => {
    await applyAll(ctx);
    return readStatus(db);
  });

  registerRoute(app, r.listZones, async ({ query, reply, request }) =>
    sendPage(reply, await listZones(db, query, domainScope(request))),
  );
  registerRoute(app, r.getZone, async ({ params }) => getZone(db, params.zone));
  registerRoute(app, r.addZone, async ({ body, request }) => {
    request.auditTarget = body.domain;
    return createZone(ctx, body);
  });
  registerRoute(app, r.updateZone, async ({ params, body }) => updateZone(ctx, params.domain, body));
  registerRoute(app, r.removeZone, async ({ params, query, body }) => {
    await removeZone(ctx, params.domain, body?.confirm === true || yes(query.force));
    return { success: true as const, message: `Zone ${params.domain} removed` };
  });
  registerRoute(app, r.zoneFile, async ({ params }) => readZoneFile(ctx, params.zone));

  registerRecordExport(app, db);
  registerRoute(app, r.listRecords, async ({ query, reply, request }) =>
    sendPage(reply, await listRecords(db, query, domainScope(request))),
  );
  registerRoute(app, r.listZoneRecords, async ({ params, query, reply }) => {
    await getZone(db, params.zone);
    return sendPage(reply, await listRecords(db, { ...query, zone: params.zone }));
  });
  registerRoute(app, r.addRecord, async ({ body, request }) => {
    const { zone, ...input } = body;
    request.auditTarget = `${input.qname || '@'} ${input.rtype} in ${zone}`;
    return addRecord(ctx, zone, input);
  });
  registerRoute(app, r.removeRecord, async ({ body, request }) => {
    const removed = await removeRecordByName(ctx, body);
    request.auditTarget = `${removed.qname || '@'} ${removed.rtype} in ${removed.zone}`;
    return { success: true as const, message: 'Record removed' };
  });
  registerRoute(app, r.createZoneRecord, async ({ params, body, request }) => {
    request.auditTarget = `${body.qname || '@'} ${body.rtype} in ${params.zone}`;
    return addRecord(ctx, params.zone, body);
  });
  registerRoute(app, r.updateZoneRecord, async ({ params, query, body }) =>
    updateRecord(ctx, params.zone, params.qname, params.rtype, query, body),
  );
  registerRoute(app, r.removeRecords, async ({ body }) => ({
    success: true as const,
    removed: await deleteRecords(ctx, body.ids),
  }));
  registerRoute(app, r.deleteZoneRecord, async ({ params, query }) => {
    await deleteRecord(ctx, params.zone, params.qname, params.rtype, query);
    return { success: true as const, message: 'Record deleted' };
  });

  registerRoute(app, r.getSettings, async () => getSettingsState(ctx));
  registerRoute(app, r.saveSettings, async ({ body }) => saveSettings(ctx, body));
  registerRoute(app, r.systemRecords, async ({ query }) => systemRecords(ctx, query.zone));

  // The import reads text/csv; its parser and larger body limit stay inside this scope.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/csv', 'application/csv'],
      { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
      (_req, body, done) => {
        done(null, body);
      },
    );
    registerRoute(scope, r.importRecords, async ({ query, body, request, reply }) => {
      // A large file runs as a job: 202 with its id, progress on /api/events.
      if (deps.jobs && csvDataLines(body) > JOB_IMPORT_ROWS) {
        const dryRun = yes(query.dryRun);
        const title = dryRun ? 'DNS record import check' : 'DNS record import';
        const job = await deps.jobs.run(
          JOB_KINDS.recordImport,
          title,
          request.admin?.email ?? null,
          async (j) => {
            const result = await importRecords(ctx, body, dryRun, j);
            return {
              result,
              counts: { imported: result.imported, skipped: result.skipped, errors: result.errors.length },
              errors: result.errors,
              summary: `${result.imported} imported, ${result.skipped} skipped`,
            };
          },
        );
        request.auditTarget = `job ${job.id}`;
        request.auditDetails = { job: job.id, dryRun };
        void reply.code(202);
        return { jobId: job.id, state: job.state, message: `Import started as job ${job.id}` };
      }
      const result = await importRecords(ctx, body, yes(query.dryRun));
      request.auditDetails = { imported: result.imported, skipped: result.skipped, dryRun: result.dryRun };
      return result;
    });
  });
  return {
    republishMailZones: (domains) => republishMailZones(ctx, domains),
    challenges: dnsChallenges(ctx),
    bulkOperations: dnsBulkOperations(ctx),
  };
}

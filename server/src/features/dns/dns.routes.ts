import { dnsRoutes } from '@mailroom/contract/dns';
import { JOB_IMPORT_ROWS, JOB_KINDS } from '@mailroom/contract/jobs';
import type { FastifyInstance } from 'fastify';
import { domainScope } from '../../http/access-scope.ts';
import { registerRoute } from '../../http/register-route.ts';
import { sendPage } from '../../http/list-headers.ts';
import { runImport } from '../jobs/jobs.public.ts';
import type { DnsContext } from './dns.context.ts';
import { dashboard, systemRecords } from './dns-overview.service.ts';
import { applyAll, getSettingsState, saveSettings } from './settings/dns-settings.actions.ts';
import { readStatus } from './settings/dns-status.service.ts';
import { registerRecordExport } from './records/record-export.routes.ts';
import { importRecords } from './records/record-import.service.ts';
import {
  addRecord,
  deleteRecord,
  deleteRecords,
  listRecords,
  removeRecordByName,
  updateRecord,
} from './records/record.service.ts';
import {
  createZone,
  getZone,
  listZones,
  readZoneFile,
  removeZone,
  updateZone,
} from './zones/zone.service.ts';

/** CSV imports may be large; JSON bodies keep the app's default limit. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

const yes = (v: string | undefined) => v === '1' || v === 'true';

/** The DNS area's HTTP routes: request -> service -> answer. */
export function registerDnsRoutes(app: FastifyInstance, ctx: DnsContext): void {
  const db = ctx.deps.database.db;
  const deps = ctx.deps;
  const r = dnsRoutes;

  registerRoute(app, r.dashboard, async ({ query }) => dashboard(ctx, query.limit ?? 10));
  registerRoute(app, r.status, async () => readStatus(db));
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
      const dryRun = yes(query.dryRun);
      // A large file runs as a job: 202 with its id, progress on /api/events.
      return runImport(deps, request, reply, {
        csv: body,
        jobAbove: JOB_IMPORT_ROWS,
        kind: JOB_KINDS.recordImport,
        title: dryRun ? 'DNS record import check' : 'DNS record import',
        work: (job) => importRecords(ctx, body, dryRun, job),
        summary: (result) => `${result.imported} imported, ${result.skipped} skipped`,
        jobAudit: { dryRun },
        inlineAudit: (result) => ({
          details: { imported: result.imported, skipped: result.skipped, dryRun: result.dryRun },
        }),
      });
    });
  });
}

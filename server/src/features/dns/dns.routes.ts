import { dnsRoutes } from '@mailroom/contract/dns';
import { TOTAL_COUNT_HEADER } from '@mailroom/contract/common';
import type { MailDnsFactsProvider } from '@mailroom/contract/mail-dns';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import { bindLayout } from './bind-layout.ts';
import type { DnsContext } from './dns-context.ts';
import { dashboard, systemRecords } from './dns-overview.service.ts';
import { applyAll, getSettingsState, republishMailZones, saveSettings } from './dns-settings.actions.ts';
import { readStatus } from './dns-status.service.ts';
import { importRecords } from './record-import.service.ts';
import { addRecord, deleteRecord, listRecords, removeRecordByName, updateRecord } from './record.service.ts';
import { createZone, getZone, listZones, readZoneFile, removeZone, updateZone } from './zone.service.ts';

export interface DnsOptions {
  /** The mail area's facts, for the derived MX/SPF/DKIM/DMARC/autoconfig records. */
  mailFacts?: MailDnsFactsProvider;
  /** Addresses the rendered named.conf listens on; `any` by default. */
  listenOn?: string[];
}

/** CSV imports may be large; JSON bodies keep the app's default limit. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

const yes = (v: string | undefined) => v === '1' || v === 'true';

export interface DnsHandle {
  /** Re-render the mail domains' zones after a mail change. */
  republishMailZones(): Promise<void>;
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
  };
  const db = deps.database.db;
  const r = dnsRoutes;

  registerRoute(app, r.dashboard, async ({ query }) => dashboard(ctx, query.limit ?? 10));
  registerRoute(app, r.status, async () => readStatus(db));
  registerRoute(app, r.apply, async () => {
    await applyAll(ctx);
    return readStatus(db);
  });

  registerRoute(app, r.listZones, async ({ query, reply }) => {
    const { items, total } = await listZones(db, query);
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  });
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

  registerRoute(app, r.listRecords, async ({ query, reply }) => {
    const { items, total } = await listRecords(db, query);
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  });
  registerRoute(app, r.listZoneRecords, async ({ params, query, reply }) => {
    await getZone(db, params.zone);
    const { items, total } = await listRecords(db, { ...query, zone: params.zone });
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
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
  registerRoute(app, r.deleteZoneRecord, async ({ params, query }) => {
    await deleteRecord(ctx, params.zone, params.qname, params.rtype, query);
    return { success: true as const, message: 'Record deleted' };
  });

  registerRoute(app, r.getSettings, async () => getSettingsState(ctx));
  registerRoute(app, r.saveSettings, async ({ body }) => saveSettings(ctx, body));
  registerRoute(app, r.systemRecords, async ({ query }) => systemRecords(ctx, query.zone));

  // The import reads text/csv; its parser and larger body limit stay inside this scope.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser(
      ['text/csv', 'text/plain'],
      { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
      (_req, body, done) => {
        done(null, body);
      },
    );
    registerRoute(scope, r.importRecords, async ({ query, body, request }) => {
      const result = await importRecords(ctx, body, yes(query.dryRun));
      request.auditDetails = { imported: result.imported, skipped: result.skipped, dryRun: result.dryRun };
      return result;
    });
  });
  return { republishMailZones: () => republishMailZones(ctx) };
}

import type { DnsDashboard, SystemRecord } from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { observeDaemons } from '../../host/local-services.ts';
import type { DnsContext } from './dns.context.ts';
import { loadSettings } from './settings/dns-settings.service.ts';
import { probeNameServer } from './stack/name-server.probe.ts';
import { deriveMailRecords, overriddenBy } from './records/system-records.rules.ts';
import { ownRecordsAt } from './records/record.repository.ts';
import { newestZones, zoneServing, zoneTotals } from './zones/zone.repository.ts';
import { toZone } from './zones/zone-rows.mapper.ts';

type Db = Kysely<Database>;

/** Counts come from the zones table (record counts are kept per zone), never from row scans. */
export async function dashboard(ctx: DnsContext, limit: number): Promise<DnsDashboard> {
  const db = ctx.deps.database.db;
  const [totals, zones, { settings }, sslCertificates] = await Promise.all([
    zoneTotals(db),
    newestZones(db, limit),
    loadSettings(db),
    ctx.sslCount ? ctx.sslCount() : Promise.resolve(null),
  ]);
  const probeName = zones[0]?.domain ?? settings.serverHostname;
  const { deps } = ctx;
  const [serverStatus, daemons] = await Promise.all([
    probeNameServer(ctx.layout.port ?? settings.serverPort, probeName),
    deps.services?.states() ?? observeDaemons(deps.host, deps.config),
  ]);
  const named = daemons.find((d) => d.name === 'named');
  return {
    totalZones: totals.zones,
    totalRecords: totals.records,
    serverStatus,
    nameServer: named ?? {
      name: 'named',
      state: 'unmanaged',
      pid: null,
      since: null,
      detail: 'Mailroom does not run or watch named here.',
    },
    // Counted by the SSL area (wired in app.ts).
    sslCertificates,
    zones: zones.map(toZone),
  };
}

/** Records derived from the mail domains, each saying whether it is served and why it exists. */
export async function systemRecords(ctx: DnsContext, zone?: string): Promise<SystemRecord[]> {
  if (!ctx.mailFacts) return [];
  const db: Db = ctx.deps.database.db;
  const want = zone?.trim().toLowerCase().replace(/\.$/, '');
  const facts = (await ctx.mailFacts()).filter((f) => !want || f.domain.toLowerCase() === want);
  const out: SystemRecord[] = [];
  for (const f of facts) {
    const derived = deriveMailRecords(f);
    const z = await zoneServing(db, f.domain.toLowerCase());
    const names = [...new Set(derived.map((d) => d.qname))];
    const own = z ? await ownRecordsAt(db, f.domain.toLowerCase(), names) : [];
    for (const d of derived) {
      const mine = own.filter((o) => o.qname === d.qname);
      const overridden = overriddenBy(d, mine);
      const published = !!z && z.zone_type === 'primary' && !overridden;
      const state = published ? 'served' : overridden && z ? 'overridden' : 'no-zone';
      const why = !z
        ? ` Not served: there is no DNS zone for ${f.domain}.`
        : overridden
          ? ' Not served: your own record at this name takes precedence.'
          : !published
            ? ` Not served: ${f.domain} is a ${z.zone_type} zone here; its primary servers publish its records.`
            : '';
      out.push({
        ...d,
        ttl: z?.default_ttl ?? 3600,
        published,
        state,
        explanation: d.explanation + why,
      });
    }
  }
  return out;
}

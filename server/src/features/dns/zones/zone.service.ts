import { type Zone, type ZoneType, type ZoneFile, dnsMessages, isIPv4 } from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import { BIND_SYSTEM_PATHS } from '../stack/bind.layout.ts';
import { isInsideZone, toRelativeName } from './dns-names.rules.ts';
import type { DnsContext } from '../dns.context.ts';
import { runDnsAction } from '../stack/dns-publish.service.ts';
import { loadSettings } from '../settings/dns-settings.service.ts';
import { applyCountDeltas, CountDeltas, deleteZoneCounts } from '../records/record-count.repository.ts';
import { deleteZoneRecords, insertRecords } from '../records/record.repository.ts';
import { deleteZoneRow, findZone, insertZone, updateZoneRow, zoneExists } from './zone.repository.ts';
import { type ZoneRow, toZone } from './zone-rows.mapper.ts';

export { listZones } from './zone.repository.ts';

type Db = Kysely<Database>;

export async function requireZone(db: Db, domain: string): Promise<ZoneRow> {
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  const row = await findZone(db, d);
  if (!row) throw notFound(dnsMessages.zoneNotFound(d));
  return row;
}

export interface ZoneCreate {
  domain: string;
  zoneType: ZoneType;
  primaryNs: string;
  adminEmail: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum?: number | undefined;
  primaries?: string[] | undefined;
  nsAddress?: string | undefined;
}

const host = (h: string) => h.trim().toLowerCase().replace(/\.$/, '');

export async function createZone(ctx: DnsContext, body: ZoneCreate): Promise<Zone> {
  return runDnsAction(ctx, async (trx) => {
    const domain = host(body.domain);
    if (await zoneExists(trx, domain))
      throw conflict(dnsMessages.zoneExists(domain), [
        { field: 'domain', message: dnsMessages.zoneExists(domain) },
      ]);
    const { settings } = await loadSettings(trx);
    const primaryNs = host(body.primaryNs);
    const primary = body.zoneType === 'primary';
    const nsAddress = body.nsAddress?.trim() || undefined;
    if (primary && isInsideZone(primaryNs, domain) && !nsAddress) {
      throw fieldError('primaryNs', dnsMessages.nsInsideZone(primaryNs));
    }
    const now = new Date().toISOString();
    await insertZone(trx, {
      domain,
      zone_type: body.zoneType,
      status: 'pending',
      primary_ns: primaryNs,
      admin_email: body.adminEmail.trim(),
      // Publishing bumps the serial to max(asked, today's YYYYMMDD00).
      serial: primary ? body.serial - 1 : body.serial,
      refresh: body.refresh,
      retry: body.retry,
      expire: body.expire,
      minimum: body.minimum ?? 300,
      default_ttl: settings.defaultTtl,
      primaries: primary ? '' : (body.primaries ?? []).join(','),
      created_at: now,
      updated_at: now,
    });

    if (primary) {
      const records: { qname: string; rtype: string; value: string }[] = [];
      if (nsAddress && isInsideZone(primaryNs, domain)) {
        records.push({
          qname: toRelativeName(primaryNs, domain) ?? '',
          rtype: isIPv4(nsAddress) ? 'A' : 'AAAA',
          value: nsAddress.toLowerCase(),
        });
      }
      // The settings' other nameservers serve every new zone; names inside it would need glue.
      for (const ns of [settings.secondaryNameserver, settings.tertiaryNameserver].map(host)) {
        if (ns && ns !== primaryNs && !isInsideZone(ns, domain))
          records.push({ qname: '', rtype: 'NS', value: ns });
      }
      if (records.length) {
        await insertRecords(
          trx,
          records.map((r) => ({
            zone: domain,
            ...r,
            ttl: settings.defaultTtl,
            priority: null,
            weight: null,
            port: null,
          })),
        );
        const deltas = new CountDeltas();
        for (const r of records) deltas.add(domain, r.rtype, 1);
        await applyCountDeltas(trx, ctx.deps.database.dialect, deltas);
      }
    }
    return {
      value: domain,
      plan: {
        zones: primary ? [{ domain, bump: 'always', serialAtLeast: body.serial }] : [],
        confs: true,
      },
    };
  }).then((domain) => getZone(ctx.deps.database.db, domain));
}

export async function getZone(db: Db, domain: string): Promise<Zone> {
  return toZone(await requireZone(db, domain));
}

export interface ZoneUpdate {
  primaryNs?: string | undefined;
  adminEmail?: string | undefined;
  serial?: number | undefined;
  refresh?: number | undefined;
  retry?: number | undefined;
  expire?: number | undefined;
  minimum?: number | undefined;
  primaries?: string[] | undefined;
}

export async function updateZone(ctx: DnsContext, domain: string, body: ZoneUpdate): Promise<Zone> {
  const d = await runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, domain);
    const primary = zone.zone_type === 'primary';
    if (body.primaries !== undefined && primary) {
      throw fieldError('primaries', 'Primary servers apply to secondary and stub zones only');
    }
    if (body.primaries !== undefined && body.primaries.length === 0) {
      throw fieldError('primaries', 'Primary Servers is required');
    }
    const primariesChanged = body.primaries !== undefined && body.primaries.join(',') !== zone.primaries;
    await updateZoneRow(trx, zone.id, {
      ...(body.primaryNs !== undefined ? { primary_ns: host(body.primaryNs) } : {}),
      ...(body.adminEmail !== undefined ? { admin_email: body.adminEmail.trim() } : {}),
      ...(body.refresh !== undefined ? { refresh: body.refresh } : {}),
      ...(body.retry !== undefined ? { retry: body.retry } : {}),
      ...(body.expire !== undefined ? { expire: body.expire } : {}),
      ...(body.minimum !== undefined ? { minimum: body.minimum } : {}),
      ...(body.primaries !== undefined ? { primaries: body.primaries.join(',') } : {}),
      ...(!primary && body.serial !== undefined
        ? { serial: Math.max(Number(zone.serial), body.serial) }
        : {}),
      updated_at: new Date().toISOString(),
    });
    return {
      value: zone.domain,
      plan: {
        zones: primary ? [{ domain: zone.domain, bump: 'always', serialAtLeast: body.serial ?? 0 }] : [],
        confs: primariesChanged,
      },
    };
  });
  return getZone(ctx.deps.database.db, d);
}

export async function removeZone(ctx: DnsContext, domain: string, confirmed: boolean): Promise<void> {
  await runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, domain);
    const n = Number(zone.record_count);
    if (n > 0 && !confirmed) {
      throw conflict(dnsMessages.zoneHasRecords(zone.domain, n), {
        records: n,
        confirm: 'send {"confirm": true} or ?force=1',
      });
    }
    await deleteZoneRecords(trx, zone.domain);
    await deleteZoneCounts(trx, zone.domain);
    await deleteZoneRow(trx, zone.id);
    return {
      value: undefined,
      plan: { confs: true, removed: zone.zone_type === 'primary' ? [zone.domain] : [] },
    };
  });
}

/** The zone file as written under the host root (what named serves). */
export async function readZoneFile(ctx: DnsContext, domain: string): Promise<ZoneFile> {
  const zone = await requireZone(ctx.deps.database.db, domain);
  if (zone.zone_type !== 'primary') {
    throw notFound(
      `Zone ${zone.domain} is a ${zone.zone_type} zone; its data is transferred from its primary servers`,
    );
  }
  const content = await ctx.deps.host.readFile(BIND_SYSTEM_PATHS.zoneFile(zone.domain));
  if (content === null) throw notFound(`The zone file of ${zone.domain} has not been written yet`);
  return { zone: zone.domain, serial: Number(zone.serial), content };
}

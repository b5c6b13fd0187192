import type { Zone, ZoneStatus, ZoneType } from '@mailroom/contract/dns';
import type { Selectable } from 'kysely';
import type { DnsZoneTable } from '../../../db/dns.tables.ts';

export type ZoneRow = Selectable<DnsZoneTable>;

export function toZone(r: ZoneRow): Zone {
  return {
    domain: r.domain,
    zoneType: r.zone_type as ZoneType,
    status: r.status as ZoneStatus,
    records: Number(r.record_count),
    lastUpdated: r.updated_at,
    soa: {
      primary: r.primary_ns,
      email: r.admin_email,
      serial: Number(r.serial),
      refresh: r.refresh,
      retry: r.retry,
      expire: r.expire,
      minimum: r.minimum,
    },
    primaries: r.primaries === '' ? [] : r.primaries.split(','),
  };
}

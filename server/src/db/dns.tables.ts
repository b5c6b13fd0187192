import type { ColumnType, Generated } from 'kysely';

type WithDefault<T> = ColumnType<T, T | undefined, T>;

export interface DnsZoneTable {
  id: Generated<number>;
  domain: string;
  zone_type: string;
  status: string;
  primary_ns: string;
  admin_email: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  /** $TTL of the zone file, taken from the settings' default TTL when the zone was created. */
  default_ttl: number;
  /** Comma-separated primary server addresses (secondary and stub zones). */
  primaries: WithDefault<string>;
  /** Kept in step with dns_records in the same transaction, so lists never count rows. */
  record_count: WithDefault<number>;
  /** sha256 of the rendered zone file without its serial: a re-render bumps the serial only on change. */
  rendered_hash: WithDefault<string | null>;
  created_at: string;
  updated_at: string;
}

export interface DnsRecordTable {
  id: Generated<number>;
  /** The zone's domain (a zone is never renamed), so paging by zone and name needs no join. */
  zone: string;
  /** Relative to the zone, lower case; '' is the apex. */
  qname: string;
  rtype: string;
  value: string;
  ttl: number;
  priority: number | null;
  weight: number | null;
  port: number | null;
}

/** One row (id 1): the settings as JSON, their version, and the last render/check result. */
export interface DnsSettingsTable {
  id: number;
  data: string;
  version: number;
  check_ok: WithDefault<number | null>;
  checked_at: WithDefault<string | null>;
  applied_at: WithDefault<string | null>;
  check_message: WithDefault<string>;
  check_output: WithDefault<string>;
  /** JSON: { attempted, ok, output }. */
  reload: WithDefault<string>;
  /** JSON array of strings. */
  notes: WithDefault<string>;
}

export interface DnsRecordCountTable {
  zone: string;
  rtype: string;
  n: number;
}

export interface DnsTables {
  dns_zones: DnsZoneTable;
  dns_records: DnsRecordTable;
  dns_record_counts: DnsRecordCountTable;
  dns_settings: DnsSettingsTable;
}

import { ZONE_TYPES, ZONE_STATUSES, DNS_RECORD_TYPES } from './constants.ts';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Entities

export const Soa = z.object({
  primary: z.string(),
  email: z.string(),
  serial: z.number().int(),
  refresh: z.number().int(),
  retry: z.number().int(),
  expire: z.number().int(),
  minimum: z.number().int(),
});
export type Soa = z.infer<typeof Soa>;

export const Zone = z.object({
  domain: z.string(),
  zoneType: z.enum(ZONE_TYPES),
  status: z.enum(ZONE_STATUSES),
  /** Number of records (system records not counted). */
  records: z.number().int(),
  /** ISO timestamp of the last change; the screen shows it relative ('Just now', '2 hours ago'). */
  lastUpdated: z.string(),
  soa: Soa,
  /** Primary servers' addresses, for secondary and stub zones. */
  primaries: z.array(z.string()),
});
export type Zone = z.infer<typeof Zone>;

export const DnsRecord = z.object({
  id: z.number().int(),
  zone: z.string(),
  /** Relative to the zone; '' is the apex (shown as @). */
  qname: z.string(),
  rtype: z.enum(DNS_RECORD_TYPES),
  /** A/AAAA address, host name target (MX/CNAME/NS/PTR/SRV, fully qualified, no trailing dot), TXT text, CAA `flags tag "value"`. */
  value: z.string(),
  ttl: z.number().int(),
  /** MX and SRV only, else null. */
  priority: z.number().int().nullable(),
  /** SRV only, else null. */
  weight: z.number().int().nullable(),
  port: z.number().int().nullable(),
  system: z.literal(false).optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/** A record derived from the mail settings: read-only, rendered into the zone when it exists. */
export const SystemRecord = z.object({
  zone: z.string(),
  qname: z.string(),
  rtype: z.enum(DNS_RECORD_TYPES),
  value: z.string(),
  ttl: z.number().int(),
  priority: z.number().int().optional(),
  source: z.literal('mail'),
  explanation: z.string(),
  /** True when a zone for this mail domain exists, so the record is served. */
  published: z.boolean(),
  /** Why: served, no primary zone for the domain yet, or the administrator's own record wins. */
  state: z.enum(['served', 'no-zone', 'overridden']),
  /** Set when the target (MX host, autoconfig CNAME) is not a public host name. */
  warning: z.string().optional(),
});
export type SystemRecord = z.infer<typeof SystemRecord>;

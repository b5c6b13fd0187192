import { z } from 'zod';
import { JobAccepted } from './jobs.ts';
import { ListQuery, OkResponse } from './common.ts';
import { DaemonStatus } from './daemons.ts';
import { fieldMessages } from './messages.ts';
import { defineRoute } from './route.ts';
import { DOMAIN_RE, domainField, emailField, queryInt, requiredInt, requiredString } from './validators.ts';

// ---------------------------------------------------------------------------------------------
// Constants (spec 2 §3, §9)

export const ZONE_TYPES = ['primary', 'secondary', 'stub'] as const;
export type ZoneType = (typeof ZONE_TYPES)[number];
export const ZONE_STATUSES = ['active', 'pending', 'error'] as const;
export type ZoneStatus = (typeof ZONE_STATUSES)[number];

/** Every type the server accepts; the spec's form offers the first eight. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'PTR', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
export const DNS_FORM_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'PTR'] as const;
export const CAA_TAGS = ['issue', 'issuewild', 'iodef'] as const;

export const SERVER_PROTOCOLS = ['udp', 'tcp', 'both'] as const;
export const DNS_LOG_LEVELS = ['debug', 'info', 'warning', 'error'] as const;

export const SERIAL_MAX = 4294967295;
export const SOA_TIMER_MAX = 2147483647;
export const TTL_MAX = 2147483647;

export const zoneLabels = {
  domain: 'Domain Name',
  zoneType: 'Zone Type',
  primaryNs: 'Primary Nameserver',
  adminEmail: 'Admin Email',
  serial: 'Serial Number',
  refresh: 'Refresh Interval',
  retry: 'Retry Interval',
  expire: 'Expire Time',
  minimum: 'Minimum TTL',
  primaries: 'Primary Servers',
  nsAddress: 'Nameserver Address',
} as const;

export const recordLabels = {
  zone: 'Zone',
  rtype: 'Record Type',
  qname: 'Name',
  value: 'Value',
  ttl: 'TTL',
  priority: 'Priority',
  weight: 'Weight',
  port: 'Port',
} as const;

/** Zone form defaults (§9); primaryNs/adminEmail default to the server's host and the admin's email. */
export const ZONE_FORM_DEFAULTS = {
  zoneType: 'primary' as ZoneType,
  serial: 1,
  refresh: 3600,
  retry: 1800,
  expire: 604800,
  minimum: 300,
};

/** Record form defaults (§9); the API's zone-scoped create defaults ttl to 300 (spec 1 §7). */
export const RECORD_FORM_DEFAULTS = { rtype: 'A' as DnsRecordType, ttl: 3600, priority: 10 };
export const RECORD_API_DEFAULT_TTL = 300;

export const dnsMessages = {
  loadZones: 'Failed to load DNS zones',
  loadRecords: 'Failed to load DNS records',
  loadDashboard: 'Failed to load DNS data',
  noZones: 'No DNS zones found',
  noZonesMatching: (search: string) => `No zones found matching "${search}"`,
  noRecords: 'No DNS records found',
  noRecordsMatching: 'No records found matching your criteria',
  noActivity: 'No recent DNS activity',
  importHint: 'Upload a CSV file with columns: zone, name, type, value, ttl, priority',
  ipv4: 'Value must be a valid IPv4 address',
  ipv6: 'Value must be a valid IPv6 address',
  host: (label: string) => `${label} must be a valid host name`,
  fqdn: (label: string) =>
    `${label} must be a fully qualified name (for example ns1.example.com): a single label cannot be delegated to`,
  srvName: 'Name must look like _service._proto (for example _sip._tcp) for SRV records',
  caa: 'Value must be "flags tag value", flags 0 to 255, tag issue, issuewild or iodef',
  txtTooLong: 'Value must be at most 65535 bytes',
  name: 'Name must be @ or a valid name inside the zone',
  zoneExists: (domain: string) => `Zone ${domain} already exists`,
  zoneNotFound: (domain: string) => `Zone ${domain} not found`,
  nsInsideZone: (ns: string) =>
    `Primary Nameserver ${ns} lies inside the zone; give its address (Nameserver Address) or use a name outside the zone`,
  nameOutsideZone: (zone: string) => `Name must be inside the zone ${zone}`,
  zoneHasRecords: (domain: string, n: number) =>
    `Zone ${domain} still has ${n} record${n === 1 ? '' : 's'}; confirm to remove the zone and its records`,
  cnameConflict: (name: string) => `A CNAME record cannot coexist with other records at ${name}`,
  recordNotFound: 'Record not found',
  recordAmbiguous: (n: number) => `${n} records match; give the zone and the value (or the id) to choose one`,
  recordExists: 'An identical record already exists',
  ttlRange: (min: number, max: number) => `TTL must be between ${min} and ${max}`,
  secondaryNoRecords: (domain: string) =>
    `Zone ${domain} is a secondary or stub zone; its records come from its primary servers`,
  wildcardOff: 'Wildcard names are turned off in the DNS settings',
  staleSettings: 'The DNS settings were changed by someone else; reload them and save again',
  ttlOrder: 'TTLs must satisfy Min TTL ≤ Default TTL ≤ Max TTL',
} as const;

// ---------------------------------------------------------------------------------------------
// Pure value checks, shared by the record form and the server

const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
// Labels of letters, digits, hyphen (not at either end) and underscore, up to 63 characters each.
const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const HOST_RE = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const RELATIVE_RE = new RegExp(`^(?:\\*|${LABEL})(?:\\.${LABEL})*\\.?$`);
const SRV_NAME_RE = /^_[A-Za-z0-9-]+\._[A-Za-z0-9-]+(?:\.|$)/;

export function isIPv4(v: string): boolean {
  return IPV4_RE.test(v);
}

export function isIPv6(v: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(v) || v.length > 45) return false;
  let s = v;
  // An embedded IPv4 tail counts as two groups.
  if (s.includes('.')) {
    const lastColon = s.lastIndexOf(':');
    if (lastColon === -1 || !isIPv4(s.slice(lastColon + 1))) return false;
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = s.split('::');
  if (dbl.length > 2) return false;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(dbl[0] ?? '');
  const tail = dbl.length === 2 ? groups(dbl[1] ?? '') : [];
  const all = [...head, ...tail];
  if (all.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  const n = all.length;
  return dbl.length === 2 ? n <= 7 : n === 8;
}

/** A host name: dot-separated labels (letters, digits, hyphen, underscore), optional trailing dot. */
export function isHostName(v: string): boolean {
  return v.length > 0 && v.length <= 254 && HOST_RE.test(v) && (v.length < 254 || v.endsWith('.'));
}

/** A host name with at least two labels (`ns1.example.com`): one a parent zone can delegate to. */
export function isFullyQualified(v: string): boolean {
  const name = v.trim().replace(/\.$/, '');
  return isHostName(v.trim()) && name.includes('.');
}

/**
 * Names that resolve only on this machine or network: an NS record pointing there works for no one
 * else (the zone form warns).
 */
export function isLocalOnlyName(v: string): boolean {
  const name = v.trim().toLowerCase().replace(/\.$/, '');
  if (!name) return false;
  return !name.includes('.') || /\.(localdomain|local|localhost|internal|lan|home\.arpa)$/.test(name);
}

/** A record name relative to its zone: '' or '@' (apex), labels, optionally `*` as first label. */
export function isRelativeName(v: string): boolean {
  if (v === '' || v === '@') return true;
  return v.length <= 254 && RELATIVE_RE.test(v) && (v.length < 254 || v.endsWith('.'));
}

/** Longest CAA value (`flags tag "value"`) accepted; real ones are a CA name or a URL. */
export const CAA_MAX_LENGTH = 2048;

// Flags and tag from the start of a trimmed value: disjoint classes, so no backtracking blow-up.
const CAA_HEAD_RE = /^(\d{1,3})\s+([A-Za-z0-9]{1,32})\s+/;

/** `flags tag value` of a CAA record, or null. Linear in the length of `v`. */
export function parseCaa(v: string): { flags: number; tag: string; value: string } | null {
  if (v.length > CAA_MAX_LENGTH) return null;
  const t = v.trim();
  const m = CAA_HEAD_RE.exec(t);
  if (!m) return null;
  const flags = Number(m[1]);
  const tag = (m[2] ?? '').toLowerCase();
  let value = t.slice(m[0].length);
  if (value === '') return null;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (flags > 255 || !(CAA_TAGS as readonly string[]).includes(tag) || value.includes('"')) return null;
  return { flags, tag, value };
}

export interface RecordFieldsInput {
  qname: string;
  rtype: string;
  value: string;
  priority?: number | null;
  weight?: number | null;
  port?: number | null;
}

const SRV_NUMBERS = ['priority', 'weight', 'port'] as const;

function requireNumbers(
  r: RecordFieldsInput,
  fields: readonly ('priority' | 'weight' | 'port')[],
  out: [keyof typeof recordLabels, string][],
): void {
  for (const f of fields) {
    if (r[f] === undefined || r[f] === null) out.push([f, fieldMessages.required(recordLabels[f])]);
  }
}

/** Per-type rules on one record's fields; `[field, message]` for each problem. */
export function recordFieldProblems(r: RecordFieldsInput): [keyof typeof recordLabels, string][] {
  const out: [keyof typeof recordLabels, string][] = [];
  const value = r.value.trim();
  if (!isRelativeName(r.qname.trim())) out.push(['qname', dnsMessages.name]);
  switch (r.rtype) {
    case 'A':
      if (!isIPv4(value)) out.push(['value', dnsMessages.ipv4]);
      break;
    case 'AAAA':
      if (!isIPv6(value)) out.push(['value', dnsMessages.ipv6]);
      break;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      if (!isHostName(value)) out.push(['value', dnsMessages.host(recordLabels.value)]);
      break;
    case 'MX':
      requireNumbers(r, ['priority'], out);
      if (!isHostName(value)) out.push(['value', dnsMessages.host(recordLabels.value)]);
      break;
    case 'SRV': {
      requireNumbers(r, SRV_NUMBERS, out);
      if (!SRV_NAME_RE.test(r.qname.trim())) out.push(['qname', dnsMessages.srvName]);
      if (value !== '.' && !isHostName(value)) out.push(['value', dnsMessages.host(recordLabels.value)]);
      break;
    }
    case 'TXT':
      // A UTF-16 unit is at most 3 UTF-8 bytes, so short values need no encoding to be measured.
      if (r.value.length > 21845 && new TextEncoder().encode(r.value).length > 65535) {
        out.push(['value', dnsMessages.txtTooLong]);
      }
      break;
    case 'CAA':
      if (!parseCaa(value)) out.push(['value', dnsMessages.caa]);
      break;
    default:
      out.push(['rtype', `${recordLabels.rtype} must be one of ${DNS_RECORD_TYPES.join(', ')}`]);
  }
  return out;
}

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

// ---------------------------------------------------------------------------------------------
// Zone requests

const hostField = (label: string) =>
  requiredString(label)
    .max(254, dnsMessages.host(label))
    .refine((v) => isHostName(v), dnsMessages.host(label));

/** The SOA admin address: the spec's email check, and a host-name domain (it is written into the zone). */
const soaEmailField = (label: string) =>
  emailField(label).refine((v) => isHostName(v.slice(v.lastIndexOf('@') + 1)), fieldMessages.email);

const soaTimers = {
  serial: requiredInt(zoneLabels.serial, 1, SERIAL_MAX),
  refresh: requiredInt(zoneLabels.refresh, 1, SOA_TIMER_MAX),
  retry: requiredInt(zoneLabels.retry, 1, SOA_TIMER_MAX),
  expire: requiredInt(zoneLabels.expire, 1, SOA_TIMER_MAX),
};

const primariesField = z
  .array(
    z
      .string()
      .trim()
      .refine((v) => isIPv4(v) || isIPv6(v), `${zoneLabels.primaries} must be IP addresses`),
  )
  .max(16)
  .optional();

export const ZoneCreateRequest = z
  .object({
    domain: domainField(zoneLabels.domain).transform((v) => v.toLowerCase()),
    zoneType: z.enum(ZONE_TYPES, { error: fieldMessages.required(zoneLabels.zoneType) }),
    primaryNs: hostField(zoneLabels.primaryNs),
    adminEmail: soaEmailField(zoneLabels.adminEmail),
    ...soaTimers,
    minimum: requiredInt(zoneLabels.minimum, 1, SOA_TIMER_MAX).optional(),
    /** Required for secondary and stub zones: where the zone is transferred from. */
    primaries: primariesField,
    /**
     * Address of the primary nameserver when its name lies inside the zone (ns1.example.com for
     * example.com): BIND refuses such a zone without an A/AAAA record for it, so one is added.
     */
    nsAddress: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || isIPv4(v) || isIPv6(v),
        `${zoneLabels.nsAddress} must be an IPv4 or IPv6 address`,
      )
      .optional(),
  })
  .superRefine((z0, ctx) => {
    if (z0.zoneType !== 'primary' && (z0.primaries ?? []).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['primaries'],
        message: fieldMessages.required(zoneLabels.primaries),
      });
    }
  });
export type ZoneCreateRequest = z.input<typeof ZoneCreateRequest>;

/** SOA edit: every field optional; the serial never goes backwards. */
export const ZoneUpdateRequest = z.object({
  primaryNs: hostField(zoneLabels.primaryNs).optional(),
  adminEmail: soaEmailField(zoneLabels.adminEmail).optional(),
  serial: soaTimers.serial.optional(),
  refresh: soaTimers.refresh.optional(),
  retry: soaTimers.retry.optional(),
  expire: soaTimers.expire.optional(),
  minimum: requiredInt(zoneLabels.minimum, 1, SOA_TIMER_MAX).optional(),
  primaries: primariesField,
});
export type ZoneUpdateRequest = z.input<typeof ZoneUpdateRequest>;

export const ZoneParams = z.object({ domain: z.string().min(1).max(253) });
export const ZoneScopedParams = z.object({ zone: z.string().min(1).max(253) });

export const ZoneRemoveRequest = z.object({ confirm: z.boolean().optional() }).nullish();
export const ZoneRemoveQuery = z.object({ force: z.enum(['0', '1', 'true', 'false']).optional() });

export const ZoneListQuery = ListQuery.extend({
  status: z.enum(ZONE_STATUSES).optional(),
});

export const ZoneFile = z.object({
  zone: z.string(),
  serial: z.number().int(),
  /** The BIND-format text, as written under the host root. */
  content: z.string(),
});
export type ZoneFile = z.infer<typeof ZoneFile>;

// ---------------------------------------------------------------------------------------------
// Record requests

const optionalU16 = (label: string) => requiredInt(label, 0, 65535).nullish();

const recordCore = {
  qname: z
    .string({ error: fieldMessages.required(recordLabels.qname) })
    .trim()
    .max(253, dnsMessages.name),
  rtype: z.enum(DNS_RECORD_TYPES, {
    error: `${recordLabels.rtype} must be one of ${DNS_RECORD_TYPES.join(', ')}`,
  }),
  value: requiredString(recordLabels.value).max(65535 * 2, dnsMessages.txtTooLong),
  priority: optionalU16(recordLabels.priority),
  weight: optionalU16(recordLabels.weight),
  port: optionalU16(recordLabels.port),
};

type RecordShape = RecordFieldsInput;
function perType<T extends z.ZodType<RecordShape>>(schema: T) {
  return schema.superRefine((r, ctx) => {
    for (const [field, message] of recordFieldProblems(r))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });
}

/** `POST dns/records/add` — the spec's form body. */
export const RecordAddRequest = perType(
  z.object({
    zone: requiredString(recordLabels.zone).max(253),
    ...recordCore,
    ttl: requiredInt(recordLabels.ttl, 1, TTL_MAX),
  }),
);
export type RecordAddRequest = z.input<typeof RecordAddRequest>;

/** `POST dns/zones/:zone/records` (ttl defaults to 300) and `PUT …/:qname/:rtype`. */
export const RecordInput = perType(
  z.object({
    ...recordCore,
    ttl: requiredInt(recordLabels.ttl, 1, TTL_MAX).default(RECORD_API_DEFAULT_TTL),
  }),
);
export type RecordInput = z.input<typeof RecordInput>;

export const RecordRemoveRequest = z.object({
  qname: z.string().trim().max(253),
  rtype: z.enum(DNS_RECORD_TYPES),
  zone: z.string().max(253).optional(),
  value: z.string().optional(),
});
export type RecordRemoveRequest = z.input<typeof RecordRemoveRequest>;

export const RecordPathParams = z.object({
  zone: z.string().min(1).max(253),
  /** '@' for the apex. */
  qname: z.string().min(1).max(253),
  rtype: z.enum(DNS_RECORD_TYPES),
});
/** Picks one of several records with the same name and type. */
export const RecordPickQuery = z.object({
  value: z.string().optional(),
  id: queryInt(1, undefined, 'id').optional(),
});

export const RecordListQuery = ListQuery.extend({
  zone: z.string().max(253).optional(),
  type: z.enum(DNS_RECORD_TYPES).optional(),
});
export type RecordListQuery = z.input<typeof RecordListQuery>;

/** Largest selection one bulk record delete takes. */
export const MAX_BULK_RECORDS = 1000;
export const BulkRemoveRecordsRequest = z.object({
  ids: z
    .array(
      z
        .number({ error: 'ids must be record ids' })
        .int('ids must be record ids')
        .positive('ids must be record ids'),
      {
        error: 'ids must be a list',
      },
    )
    .min(1, 'Select at least one record')
    .max(MAX_BULK_RECORDS, `At most ${MAX_BULK_RECORDS} records at once`),
});
export type BulkRemoveRecordsRequest = z.input<typeof BulkRemoveRecordsRequest>;
export const BulkRemoveRecordsResponse = z.object({
  success: z.literal(true),
  /** Records deleted (all of them: one unknown id refuses the whole delete). */
  removed: z.number().int(),
});

export const RecordImportQuery = z.object({ dryRun: z.enum(['0', '1', 'true', 'false']).optional() });
export const RecordImportResult = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  /** Row numbers count the file's lines from 1 (the header is line 1). */
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  dryRun: z.boolean(),
});
export type RecordImportResult = z.infer<typeof RecordImportResult>;

/** Column order of the spec's export file (`dns-records-{date}.csv`). */
export const RECORD_EXPORT_COLUMNS = ['zone', 'qname', 'rtype', 'value', 'ttl', 'priority'] as const;
/** Column order the import reads (a header line is skipped). */
export const RECORD_IMPORT_COLUMNS = ['zone', 'name', 'type', 'value', 'ttl', 'priority'] as const;

// ---------------------------------------------------------------------------------------------
// Settings

export const dnsSettingsLabels = {
  serverHostname: 'Server Hostname',
  serverPort: 'Server Port',
  serverProtocol: 'Server Protocol',
  enableIPv6: 'Enable IPv6',
  primaryNameserver: 'Primary Nameserver',
  secondaryNameserver: 'Secondary Nameserver',
  tertiaryNameserver: 'Tertiary Nameserver',
  defaultTtl: 'Default TTL',
  maxTtl: 'Max TTL',
  minTtl: 'Min TTL',
  zoneRefreshInterval: 'Zone Refresh Interval',
  zoneRetryInterval: 'Zone Retry Interval',
  zoneExpireTime: 'Zone Expire Time',
  enableDnssec: 'Enable DNSSEC',
  enableDnsOverHttps: 'Enable DNS over HTTPS',
  enableDnsOverTls: 'Enable DNS over TLS',
  allowRecursiveQueries: 'Allow Recursive Queries',
  allowTransfer: 'Allow Zone Transfers',
  secondaryServers: 'Secondary Servers',
  enableWildcardQueries: 'Enable Wildcard Queries',
  maxCacheSize: 'Max Cache Size (MB)',
  maxCacheEntries: 'Max Cache Entries',
  queryTimeout: 'Query Timeout (seconds)',
  maxConcurrentQueries: 'Max Concurrent Queries',
  maxResponseSize: 'Max Response Size (bytes)',
  enableCnameFlattening: 'Enable CNAME Flattening',
  enableQueryLogging: 'Enable Query Logging',
  enableErrorLogging: 'Enable Error Logging',
  logLevel: 'Log Level',
  logRetentionDays: 'Log Retention Days',
  tlsCertificatePath: 'TLS Certificate Path',
  tlsPrivateKeyPath: 'TLS Private Key Path',
} as const;

/** The six sections of the settings form, in order, with their fields. */
export const DNS_SETTINGS_SECTIONS = [
  { title: 'Server Configuration', fields: ['serverHostname', 'serverPort', 'serverProtocol', 'enableIPv6'] },
  {
    title: 'Nameserver Configuration',
    fields: ['primaryNameserver', 'secondaryNameserver', 'tertiaryNameserver'],
  },
  {
    title: 'Zone Configuration',
    fields: ['defaultTtl', 'maxTtl', 'minTtl', 'zoneRefreshInterval', 'zoneRetryInterval', 'zoneExpireTime'],
  },
  {
    title: 'Security Settings',
    fields: [
      'enableDnssec',
      'enableDnsOverHttps',
      'enableDnsOverTls',
      'tlsCertificatePath',
      'tlsPrivateKeyPath',
      'allowRecursiveQueries',
      'allowTransfer',
      'secondaryServers',
      'enableWildcardQueries',
    ],
  },
  {
    title: 'Performance Settings',
    fields: [
      'maxCacheSize',
      'maxCacheEntries',
      'queryTimeout',
      'maxConcurrentQueries',
      'maxResponseSize',
      'enableCnameFlattening',
    ],
  },
  {
    title: 'Logging Settings',
    fields: ['enableQueryLogging', 'enableErrorLogging', 'logLevel', 'logRetentionDays'],
  },
] as const;

const L = dnsSettingsLabels;
const pathField = (label: string) =>
  requiredString(label)
    .max(4096)
    .regex(/^\/[^\0\n"]*$/, `${label} must be an absolute path`);

/** Largest number of secondary servers (zone transfers and NOTIFY go to each). */
export const MAX_SECONDARY_SERVERS = 32;

/**
 * Secondary name servers by IP address: the only hosts allowed to transfer the zones (AXFR/IXFR)
 * and the ones told of every change (NOTIFY). Empty: transfers go to no one.
 */
const secondaryServersField = z
  .array(
    z
      .string({ error: `${L.secondaryServers} must be IP addresses` })
      .trim()
      .max(64),
    {
      error: `${L.secondaryServers} must be a list of IP addresses`,
    },
  )
  .max(MAX_SECONDARY_SERVERS, `${L.secondaryServers} must be at most ${MAX_SECONDARY_SERVERS} addresses`)
  .superRefine((list, ctx) => {
    const bad = list.find((v) => !isIPv4(v) && !isIPv6(v));
    if (bad !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `${L.secondaryServers} must be IP addresses (${bad || 'empty'} is not)`,
      });
    else if (new Set(list.map((v) => v.toLowerCase())).size !== list.length)
      ctx.addIssue({ code: 'custom', message: `${L.secondaryServers} lists an address twice` });
  });

export const DnsSettingsFields = z.object({
  serverHostname: hostField(L.serverHostname),
  serverPort: requiredInt(L.serverPort, 1, 65535),
  serverProtocol: z.enum(SERVER_PROTOCOLS, { error: fieldMessages.required(L.serverProtocol) }),
  enableIPv6: z.boolean(),
  primaryNameserver: hostField(L.primaryNameserver),
  secondaryNameserver: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || isHostName(v), dnsMessages.host(L.secondaryNameserver)),
  tertiaryNameserver: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || isHostName(v), dnsMessages.host(L.tertiaryNameserver)),
  defaultTtl: requiredInt(L.defaultTtl, 1, TTL_MAX),
  maxTtl: requiredInt(L.maxTtl, 1, TTL_MAX),
  minTtl: requiredInt(L.minTtl, 1, TTL_MAX),
  zoneRefreshInterval: requiredInt(L.zoneRefreshInterval, 1, SOA_TIMER_MAX),
  zoneRetryInterval: requiredInt(L.zoneRetryInterval, 1, SOA_TIMER_MAX),
  zoneExpireTime: requiredInt(L.zoneExpireTime, 1, SOA_TIMER_MAX),
  enableDnssec: z.boolean(),
  enableDnsOverHttps: z.boolean(),
  enableDnsOverTls: z.boolean(),
  allowRecursiveQueries: z.boolean(),
  allowTransfer: z.boolean(),
  secondaryServers: secondaryServersField,
  enableWildcardQueries: z.boolean(),
  maxCacheSize: requiredInt(L.maxCacheSize, 1, 1_048_576),
  maxCacheEntries: requiredInt(L.maxCacheEntries, 1, 1_000_000_000),
  queryTimeout: requiredInt(L.queryTimeout, 1, 3600),
  maxConcurrentQueries: requiredInt(L.maxConcurrentQueries, 1, 1_000_000),
  maxResponseSize: requiredInt(L.maxResponseSize, 1, 65535),
  enableCnameFlattening: z.boolean(),
  enableQueryLogging: z.boolean(),
  enableErrorLogging: z.boolean(),
  logLevel: z.enum(DNS_LOG_LEVELS, { error: fieldMessages.required(L.logLevel) }),
  logRetentionDays: requiredInt(L.logRetentionDays, 1, 3650),
  /** Where the DoT/DoH listener's certificate and key are read from (e.g. one the SSL area installs). */
  tlsCertificatePath: pathField(L.tlsCertificatePath),
  tlsPrivateKeyPath: pathField(L.tlsPrivateKeyPath),
});

function ttlOrder<T extends z.ZodType<{ minTtl: number; defaultTtl: number; maxTtl: number }>>(schema: T) {
  return schema.superRefine((s, ctx) => {
    if (s.minTtl > s.defaultTtl)
      ctx.addIssue({ code: 'custom', path: ['minTtl'], message: dnsMessages.ttlOrder });
    if (s.defaultTtl > s.maxTtl)
      ctx.addIssue({ code: 'custom', path: ['maxTtl'], message: dnsMessages.ttlOrder });
  });
}

/** Name servers must be fully qualified (issue 12: `NS vm.` is a name nobody can delegate to). */
function qualifiedNameServers<
  T extends z.ZodType<Pick<DnsSettings, 'primaryNameserver' | 'secondaryNameserver' | 'tertiaryNameserver'>>,
>(schema: T) {
  return schema.superRefine((s, ctx) => {
    for (const field of ['primaryNameserver', 'secondaryNameserver', 'tertiaryNameserver'] as const) {
      const v = s[field];
      if (v !== '' && isHostName(v) && !isFullyQualified(v))
        ctx.addIssue({ code: 'custom', path: [field], message: dnsMessages.fqdn(L[field]) });
    }
  });
}

export const DnsSettings = qualifiedNameServers(ttlOrder(DnsSettingsFields));
export type DnsSettings = z.infer<typeof DnsSettingsFields>;

/** §9 defaults. serverHostname/primaryNameserver default to the machine's host name on the server. */
export const DNS_SETTINGS_DEFAULTS: Omit<DnsSettings, 'serverHostname' | 'primaryNameserver'> = {
  serverPort: 53,
  serverProtocol: 'both',
  enableIPv6: true,
  secondaryNameserver: '',
  tertiaryNameserver: '',
  defaultTtl: 3600,
  maxTtl: 86400,
  minTtl: 300,
  zoneRefreshInterval: 3600,
  zoneRetryInterval: 1800,
  zoneExpireTime: 604800,
  enableDnssec: true,
  enableDnsOverHttps: false,
  enableDnsOverTls: false,
  allowRecursiveQueries: true,
  allowTransfer: true,
  secondaryServers: [],
  enableWildcardQueries: true,
  maxCacheSize: 100,
  maxCacheEntries: 10000,
  queryTimeout: 30,
  maxConcurrentQueries: 100,
  maxResponseSize: 65535,
  enableCnameFlattening: false,
  enableQueryLogging: false,
  enableErrorLogging: true,
  logLevel: 'info',
  logRetentionDays: 30,
  tlsCertificatePath: '/etc/bind/mailroom/tls/fullchain.pem',
  tlsPrivateKeyPath: '/etc/bind/mailroom/tls/privkey.pem',
};

/** What `GET dns/settings` answers: the settings, the version to send back, and the defaults for Reset. */
export const DnsSettingsState = DnsSettingsFields.extend({
  version: z.number().int(),
});
export type DnsSettingsState = z.infer<typeof DnsSettingsState>;

/** `POST dns/settings`: the settings, and the version they were read at (409 when stale). */
export const DnsSettingsSaveRequest = qualifiedNameServers(
  ttlOrder(DnsSettingsFields.extend({ version: z.number().int().min(0).optional() })),
);
export type DnsSettingsSaveRequest = z.input<typeof DnsSettingsSaveRequest>;

// ---------------------------------------------------------------------------------------------
// Status and dashboard

export const DnsCheckStatus = z.object({
  /** null until the first render. */
  ok: z.boolean().nullable(),
  /** When the configuration was last rendered and checked (ISO), and when it last passed. */
  checkedAt: z.string().nullable(),
  appliedAt: z.string().nullable(),
  message: z.string(),
  /** The checker's words when it rejected a file. */
  output: z.string(),
  /** Whether the name server was reloaded (system mode only) and what rndc said. */
  reload: z.object({ attempted: z.boolean(), ok: z.boolean().nullable(), output: z.string() }),
  /** Settings BIND cannot honour as given, or listeners left out (e.g. DoT on but no certificate). */
  notes: z.array(z.string()),
  /** Name servers and the server host name that are not public host names (NS targets). */
  warnings: z.array(z.string()),
});
export type DnsCheckStatus = z.infer<typeof DnsCheckStatus>;

export const DnsDashboard = z.object({
  totalZones: z.number().int(),
  totalRecords: z.number().int(),
  serverStatus: z.enum(['online', 'offline']),
  /** named's real state (Mailroom's own instance) and why, e.g. not run by Mailroom. */
  nameServer: DaemonStatus,
  /** null until an SSL area exists; never a fixed number. */
  sslCertificates: z.number().int().nullable(),
  zones: z.array(Zone),
});
export type DnsDashboard = z.infer<typeof DnsDashboard>;

export const DnsDashboardQuery = z.object({ limit: queryInt(1, 100, 'limit').optional() });

// ---------------------------------------------------------------------------------------------
// The route catalogue (spec 1 §7 DNS, plus the calls the real screens need)

const tags = ['dns'];

export const dnsRoutes = {
  dashboard: defineRoute({
    method: 'GET',
    path: 'dns/dashboard',
    summary: 'Counts, name server status and the first zones',
    tags,
    query: DnsDashboardQuery,
    response: DnsDashboard,
  }),
  status: defineRoute({
    method: 'GET',
    path: 'dns/status',
    summary: 'Result and time of the last render and check of the BIND configuration',
    tags,
    response: DnsCheckStatus,
  }),
  listZones: defineRoute({
    method: 'GET',
    path: 'dns/zones',
    summary: 'Zones, paged; search by domain; total in X-Total-Count',
    tags,
    query: ZoneListQuery,
    response: z.array(Zone),
    access: 'domain',
  }),
  getZone: defineRoute({
    method: 'GET',
    path: 'dns/zones/:zone',
    summary: 'One zone with its SOA block',
    tags,
    params: ZoneScopedParams,
    response: Zone,
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  addZone: defineRoute({
    method: 'POST',
    path: 'dns/zones/add',
    summary: 'Create a zone (SOA minimum 300 unless given); rendered and checked before commit',
    tags,
    body: ZoneCreateRequest,
    response: Zone,
    audit: 'dns.zone.create',
  }),
  updateZone: defineRoute({
    method: 'POST',
    path: 'dns/zones/update/:domain',
    summary: 'Edit the SOA fields of a zone',
    tags,
    params: ZoneParams,
    body: ZoneUpdateRequest,
    response: Zone,
    audit: 'dns.zone.update',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  removeZone: defineRoute({
    method: 'POST',
    path: 'dns/zones/remove/:domain',
    summary: 'Remove a zone; 409 while it has records unless {confirm: true} or ?force=1',
    tags,
    params: ZoneParams,
    query: ZoneRemoveQuery,
    body: ZoneRemoveRequest,
    response: OkResponse,
    audit: 'dns.zone.delete',
  }),
  zoneFile: defineRoute({
    method: 'GET',
    path: 'dns/zones/:zone/zonefile',
    summary: 'The rendered BIND zone file',
    tags,
    params: ZoneScopedParams,
    response: ZoneFile,
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  listRecords: defineRoute({
    method: 'GET',
    path: 'dns/records',
    summary: 'Records, paged; filters zone, type; q over name, value and type; total in X-Total-Count',
    tags,
    query: RecordListQuery,
    response: z.array(DnsRecord),
    access: 'domain',
  }),
  listZoneRecords: defineRoute({
    method: 'GET',
    path: 'dns/records/:zone',
    summary: 'Records of one zone, paged and filtered like dns/records',
    tags,
    params: ZoneScopedParams,
    query: RecordListQuery,
    response: z.array(DnsRecord),
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  addRecord: defineRoute({
    method: 'POST',
    path: 'dns/records/add',
    summary: 'Add a record (the spec form body)',
    tags,
    body: RecordAddRequest,
    response: DnsRecord,
    audit: 'dns.record.create',
    access: 'domain',
    domainFields: ['body.zone'],
  }),
  removeRecord: defineRoute({
    method: 'POST',
    path: 'dns/records/remove',
    summary: 'Remove a record by name and type (+ zone, + value to pick one of several)',
    tags,
    body: RecordRemoveRequest,
    response: OkResponse,
    audit: 'dns.record.delete',
    access: 'domain',
    domainFields: ['body.zone'],
  }),
  removeRecords: defineRoute({
    method: 'POST',
    path: 'dns/records/bulk-remove',
    summary: 'Delete several records by id in one change (all or none); their zones are republished once',
    tags,
    body: BulkRemoveRecordsRequest,
    response: BulkRemoveRecordsResponse,
    audit: 'dns.record.bulk-delete',
  }),
  importRecords: defineRoute({
    method: 'POST',
    path: 'dns/records/import',
    summary: 'Import records from text/csv (zone,name,type,value,ttl,priority); ?dryRun=1 checks only',
    tags,
    query: RecordImportQuery,
    body: z.string(),
    response: RecordImportResult,
    accepted: JobAccepted,
    audit: 'dns.record.import',
  }),
  createZoneRecord: defineRoute({
    method: 'POST',
    path: 'dns/zones/:zone/records',
    summary: 'Add a record to a zone (ttl defaults to 300)',
    tags,
    params: ZoneScopedParams,
    body: RecordInput,
    response: DnsRecord,
    audit: 'dns.record.create',
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  updateZoneRecord: defineRoute({
    method: 'PUT',
    path: 'dns/zones/:zone/records/:qname/:rtype',
    summary: "Replace a record ('@' is the apex; ?value= or ?id= picks one of several)",
    tags,
    params: RecordPathParams,
    query: RecordPickQuery,
    body: RecordInput,
    response: DnsRecord,
    audit: 'dns.record.update',
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  deleteZoneRecord: defineRoute({
    method: 'DELETE',
    path: 'dns/zones/:zone/records/:qname/:rtype',
    summary: "Delete a record ('@' is the apex; ?value= or ?id= picks one of several)",
    tags,
    params: RecordPathParams,
    query: RecordPickQuery,
    response: OkResponse,
    audit: 'dns.record.delete',
    access: 'domain',
    domainFields: ['params.zone'],
  }),
  getSettings: defineRoute({
    method: 'GET',
    path: 'dns/settings',
    summary: 'The DNS settings and their version',
    tags,
    response: DnsSettingsState,
  }),
  saveSettings: defineRoute({
    method: 'POST',
    path: 'dns/settings',
    summary: 'Save the DNS settings (409 when the version is stale); named.conf is rendered and checked',
    tags,
    body: DnsSettingsSaveRequest,
    response: DnsSettingsState,
    audit: 'dns.settings.update',
  }),
  apply: defineRoute({
    method: 'POST',
    path: 'dns/apply',
    summary:
      'Render and check every zone file and named.conf again (e.g. after mail settings changed), then reload',
    tags,
    response: DnsCheckStatus,
    audit: 'dns.apply',
  }),
  systemRecords: defineRoute({
    method: 'GET',
    path: 'dns/system-records',
    summary: 'Records derived from the mail domains (read-only), with explanations',
    tags,
    query: z.object({ zone: z.string().max(253).optional() }),
    response: z.array(SystemRecord),
  }),
};

/** Shared domain check, re-exported for the zone search box. */
export const isDomainName = (v: string) => DOMAIN_RE.test(v);

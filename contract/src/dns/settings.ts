import { fieldMessages } from '../messages.ts';
import { requiredInt, requiredString } from '../validators.ts';
import { SERVER_PROTOCOLS, DNS_LOG_LEVELS, SOA_TIMER_MAX, TTL_MAX, dnsMessages } from './constants.ts';
import { isIPv4, isIPv6, isHostName, isFullyQualified } from './value-checks.ts';
import { hostField } from './fields.ts';
import { z } from 'zod';

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

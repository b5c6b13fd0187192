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

import {
  type DnsRecordType,
  type DnsSettings,
  dnsMessages,
  parseCaa,
  recordFieldProblems,
  type recordLabels,
} from '@mailroom/contract/dns';
import { toRelativeName, toTargetHost } from '../zones/dns-names.rules.ts';

export interface RecordFields {
  qname: string;
  rtype: DnsRecordType;
  value: string;
  ttl: number;
  priority: number | null;
  weight: number | null;
  port: number | null;
}

export interface RecordProblem {
  field: keyof typeof recordLabels;
  message: string;
}

const HOST_TYPES = new Set<DnsRecordType>(['CNAME', 'NS', 'PTR', 'MX', 'SRV']);

/** The stored form of a value: targets fully qualified and lower case, CAA normalised. */
export function normalizeValue(rtype: DnsRecordType, value: string, zone: string): string {
  const v = rtype === 'TXT' ? value : value.trim();
  if (HOST_TYPES.has(rtype)) return toTargetHost(v, zone);
  if (rtype === 'AAAA') return v.toLowerCase();
  if (rtype === 'CAA') {
    const c = parseCaa(v);
    return c ? `${c.flags} ${c.tag} "${c.value}"` : v;
  }
  return v;
}

/**
 * Per-type rules (from the contract) plus what needs the zone and the settings: the name inside
 * the zone, wildcard names allowed, TTL within the settings' bounds, no CNAME at the apex.
 * Answers the stored form or the first problem.
 */
export function normalizeRecord(
  input: {
    qname: string;
    rtype: DnsRecordType;
    value: string;
    ttl: number;
    priority?: number | null | undefined;
    weight?: number | null | undefined;
    port?: number | null | undefined;
  },
  zone: string,
  settings: Pick<DnsSettings, 'minTtl' | 'maxTtl' | 'enableWildcardQueries'>,
): { record: RecordFields } | { problem: RecordProblem } {
  const qname = toRelativeName(input.qname, zone);
  if (qname === null) return { problem: { field: 'qname', message: dnsMessages.nameOutsideZone(zone) } };
  const first = recordFieldProblems({
    qname,
    rtype: input.rtype,
    value: input.value,
    priority: input.priority,
    weight: input.weight,
    port: input.port,
  })[0];
  if (first) return { problem: { field: first[0], message: first[1] } };
  if (!settings.enableWildcardQueries && qname.split('.').includes('*')) {
    return { problem: { field: 'qname', message: dnsMessages.wildcardOff } };
  }
  if (input.ttl < settings.minTtl || input.ttl > settings.maxTtl) {
    return { problem: { field: 'ttl', message: dnsMessages.ttlRange(settings.minTtl, settings.maxTtl) } };
  }
  if (input.rtype === 'CNAME' && qname === '') {
    return { problem: { field: 'rtype', message: dnsMessages.cnameConflict('@') } };
  }
  const hasPriority = input.rtype === 'MX' || input.rtype === 'SRV';
  const isSrv = input.rtype === 'SRV';
  return {
    record: {
      qname,
      rtype: input.rtype,
      value: normalizeValue(input.rtype, input.value, zone),
      ttl: input.ttl,
      priority: hasPriority ? (input.priority ?? null) : null,
      weight: isSrv ? (input.weight ?? null) : null,
      port: isSrv ? (input.port ?? null) : null,
    },
  };
}

export interface ExistingRecord {
  /** Absent for a record accepted earlier in the same import. */
  id?: number;
  rtype: string;
  value: string;
  priority: number | null;
  weight: number | null;
  port: number | null;
}

/**
 * Rules between records at one name: a CNAME stands alone (either way round, and one only), and
 * an identical record is not added twice. `others` are the records already at the name.
 */
export function conflictAtName(
  r: RecordFields,
  others: ExistingRecord[],
  exceptId?: number,
): RecordProblem | null {
  const rest = exceptId === undefined ? others : others.filter((o) => o.id !== exceptId);
  const name = r.qname === '' ? '@' : r.qname;
  if (rest.length && (r.rtype === 'CNAME' || rest.some((o) => o.rtype === 'CNAME'))) {
    return { field: 'rtype', message: dnsMessages.cnameConflict(name) };
  }
  const same = rest.some(
    (o) =>
      o.rtype === r.rtype &&
      o.value === r.value &&
      o.priority === r.priority &&
      o.weight === r.weight &&
      o.port === r.port,
  );
  return same ? { field: 'value', message: dnsMessages.recordExists } : null;
}

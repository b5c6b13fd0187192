import { fieldMessages } from '../messages.ts';
import { DNS_RECORD_TYPES, CAA_TAGS, recordLabels, dnsMessages } from './constants.ts';

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

import type { DnsRecordType } from '@mailroom/contract/dns';
import { parseCaa } from '@mailroom/contract/dns';

export interface RenderRecord {
  /** Relative to the zone; '' is the apex. */
  qname: string;
  rtype: DnsRecordType;
  value: string;
  ttl: number;
  priority: number | null;
  weight: number | null;
  port: number | null;
}

export interface ZoneFileInput {
  domain: string;
  defaultTtl: number;
  soa: {
    primary: string;
    email: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minimum: number;
  };
  records: RenderRecord[];
  /** Derived from the mail settings; rendered after the administrator's records. */
  systemRecords: RenderRecord[];
}

const SERIAL_LINE = /^\t+\d+\t; serial$/m;

/** The zone file text without its serial, so a re-render can tell whether anything changed. */
export function stableZoneText(text: string): string {
  return text.replace(SERIAL_LINE, '');
}

/** `first.last@example.com` → `first\.last.example.com.` (the SOA RNAME). */
export function soaMailbox(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).replace(/[^A-Za-z0-9_+=-]/g, (c) => `\\${c}`);
  // The API only stores host-name domains; anything else is escaped, never zone syntax.
  const domain = email
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/[^a-z0-9_.-]/g, (c) => `\\${c}`);
  return `${local}.${domain}.`;
}

const PLAIN_TXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A TXT value as master-file strings: split into ≤ 255-byte pieces (RFC 1035 character-strings),
 * each quoted, with `"` and `\` escaped and bytes outside printable ASCII written as \DDD.
 */
export function txtStrings(text: string): string {
  // Most values are short printable ASCII without quotes or backslashes: one string, as written.
  if (text.length <= 255 && PLAIN_TXT.test(text)) return `"${text}"`;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return '""';
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += 255) {
    let s = '"';
    for (const b of bytes.subarray(start, Math.min(start + 255, bytes.length))) {
      if (b === 0x22 || b === 0x5c) s += '\\' + String.fromCharCode(b);
      else if (b < 0x20 || b > 0x7e) s += '\\' + String(b).padStart(3, '0');
      else s += String.fromCharCode(b);
    }
    parts.push(s + '"');
  }
  return parts.join(' ');
}

const host = (v: string) => (v === '.' ? '.' : `${v}.`);

/** The RDATA of one record in master-file syntax. */
export function rdata(r: RenderRecord): string {
  switch (r.rtype) {
    case 'A':
    case 'AAAA':
      return r.value;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return host(r.value);
    case 'MX':
      return `${r.priority ?? 0} ${host(r.value)}`;
    case 'SRV':
      return `${r.priority ?? 0} ${r.weight ?? 0} ${r.port ?? 0} ${host(r.value)}`;
    case 'TXT':
      return txtStrings(r.value);
    case 'CAA': {
      const caa = parseCaa(r.value);
      if (!caa) throw new Error(`stored CAA value is malformed: ${r.value}`);
      return `${caa.flags} ${caa.tag} ${txtStrings(caa.value)}`;
    }
  }
}

const owner = (qname: string) => (qname === '' ? '@' : qname);
const line = (r: RenderRecord) => `${owner(r.qname)}\t${r.ttl}\tIN\t${r.rtype}\t${rdata(r)}\n`;

/** A primary zone in BIND master-file format. */
export function renderZoneFile(z: ZoneFileInput): string {
  const { soa } = z;
  let out =
    `; Zone ${z.domain}: rendered by Mailroom from its database; edits here are overwritten.\n` +
    `$ORIGIN ${z.domain}.\n` +
    `$TTL ${z.defaultTtl}\n` +
    `@\t${z.defaultTtl}\tIN\tSOA\t${host(soa.primary)} ${soaMailbox(soa.email)} (\n` +
    `\t\t\t${soa.serial}\t; serial\n` +
    `\t\t\t${soa.refresh}\t; refresh\n` +
    `\t\t\t${soa.retry}\t; retry\n` +
    `\t\t\t${soa.expire}\t; expire\n` +
    `\t\t\t${soa.minimum} )\t; minimum\n`;
  // The SOA's primary is always among the apex NS records, with the TTL of any the zone has
  // (one RRset, one TTL).
  const apexNs = z.records.filter((r) => r.qname === '' && r.rtype === 'NS');
  if (!apexNs.some((r) => r.value === soa.primary)) {
    out += `@\t${apexNs[0]?.ttl ?? z.defaultTtl}\tIN\tNS\t${host(soa.primary)}\n`;
  }
  if (z.records.length) out += '; records\n';
  for (const r of z.records) out += line(r);
  if (z.systemRecords.length) out += '; system records, derived from the mail settings\n';
  for (const r of z.systemRecords) out += line(r);
  return out;
}

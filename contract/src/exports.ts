import { z } from 'zod';
import { ExportQuery } from './common.ts';
import { type DnsRecord, RECORD_EXPORT_COLUMNS } from './dns.ts';
import { ALIAS_EXPORT_COLUMNS, type Alias, type Mailbox } from './mail.ts';
import { defineRoute } from './route.ts';

/**
 * Whole-table exports, streamed by the server in constant memory (CSV or JSON). The console's
 * export buttons download these instead of paging through the list calls.
 */

/** Columns of the mailbox CSV export. */
export const MAILBOX_EXPORT_COLUMNS = ['email', 'quota', 'used', 'status', 'createdAt'] as const;

export const aliasExportRow = (a: Alias) => ({
  source: a.source,
  destination: a.destination,
  status: a.status,
});

export const mailboxExportRow = (m: Mailbox) => ({
  email: m.email,
  quota: m.quota,
  used: m.used,
  status: m.status,
  createdAt: m.createdAt,
});

/**
 * A record as a line of the spec's export (zone, qname, rtype, value, ttl, priority). The apex is
 * written as the zone's absolute name ('example.com.'): an import line needs a name, and '@' would
 * be neutralised as a formula. An SRV value is written 'weight port target' (its priority has its
 * own column), the form the import reads back.
 */
export const recordExportRow = (r: DnsRecord) => ({
  zone: r.zone,
  qname: r.qname === '' ? `${r.zone}.` : r.qname,
  rtype: r.rtype,
  value: r.rtype === 'SRV' ? `${r.weight ?? 0} ${r.port ?? 0} ${r.value}` : r.value,
  ttl: r.ttl,
  priority: r.priority,
});

/** `{stem}-{YYYY-MM-DD}.{csv|json}`: the date is the caller's local date. */
export const exportFileName = (stem: string, stamp: string, format: 'csv' | 'json' = 'csv') =>
  `${stem}-${stamp}.${format}`;

export const EXPORT_STEMS = { mailboxes: 'mailboxes', aliases: 'aliases', records: 'dns-records' } as const;
export { ALIAS_EXPORT_COLUMNS, RECORD_EXPORT_COLUMNS };

const body = z.string().describe('CSV text with a header row, or a JSON array, streamed');

export const exportRoutes = {
  exportMailboxes: defineRoute({
    method: 'GET',
    path: 'mail/users/export',
    summary: `Every mailbox, streamed as CSV (${MAILBOX_EXPORT_COLUMNS.join(', ')}) or a JSON array`,
    tags: ['mail'],
    query: ExportQuery,
    response: body,
    access: 'domain',
  }),
  exportAliases: defineRoute({
    method: 'GET',
    path: 'mail/aliases/export',
    summary: `Every alias, streamed as CSV (${ALIAS_EXPORT_COLUMNS.join(', ')}) or a JSON array`,
    tags: ['mail'],
    query: ExportQuery,
    response: body,
    access: 'domain',
  }),
  exportRecords: defineRoute({
    method: 'GET',
    path: 'dns/records/export',
    summary: `Every DNS record, streamed as CSV (${RECORD_EXPORT_COLUMNS.join(', ')}) or a JSON array`,
    tags: ['dns'],
    query: ExportQuery,
    response: body,
    access: 'domain',
  }),
};

import { RECORD_EXPORT_COLUMNS, dnsRoutes, type DnsRecord } from '@mailroom/contract/dns';
import { apiCallWithTotal } from '../../api/client.ts';
import { toCsv, todayStamp } from '../../lib/csv.ts';
import { collectPages } from '../../lib/collect-pages.ts';

/** The largest page the list calls accept (ListQuery). */
export const EXPORT_PAGE_SIZE = 1000;

/** §7: dns-records-{date}.csv. */
export function recordExportFileName(stamp: string = todayStamp()): string {
  return `dns-records-${stamp}.csv`;
}

/**
 * Columns zone, qname, rtype, value, ttl, priority; formula-looking cells are neutralised by toCsv.
 * The apex is written as the zone's absolute name ('example.com.'): an import line needs a name,
 * and '@' would be neutralised as a formula. An SRV value is written 'weight port target' (its
 * priority has its own column), the form the import reads back.
 */
export function recordsToCsv(records: DnsRecord[]): string {
  return toCsv(
    records.map((r) => ({
      zone: r.zone,
      qname: r.qname === '' ? `${r.zone}.` : r.qname,
      rtype: r.rtype,
      value: r.rtype === 'SRV' ? `${r.weight ?? 0} ${r.port ?? 0} ${r.value}` : r.value,
      ttl: r.ttl,
      priority: r.priority,
    })),
    [...RECORD_EXPORT_COLUMNS],
  );
}

/** Every record, not only the visible page, read in the largest pages the server allows. */
export function fetchAllRecords(): Promise<DnsRecord[]> {
  return collectPages(
    (offset, limit) => apiCallWithTotal(dnsRoutes.listRecords, { query: { offset, limit, sort: 'zone' } }),
    EXPORT_PAGE_SIZE,
  );
}

import { exportRoutes, recordExportRow } from '@mailroom/contract/exports';
import { RECORD_EXPORT_COLUMNS, type DnsRecord } from '@mailroom/contract/dns';
import { apiDownload } from '../../api/client.ts';
import { downloadBlob, toCsv, todayStamp } from '../../lib/csv.ts';

/** §7: dns-records-{date}.csv. */
export function recordExportFileName(stamp: string = todayStamp()): string {
  return `dns-records-${stamp}.csv`;
}

/**
 * Columns zone, qname, rtype, value, ttl, priority, as the server's export writes them (the apex
 * as the zone's absolute name, an SRV value as 'weight port target'); formula-looking cells are
 * neutralised.
 */
export function recordsToCsv(records: DnsRecord[]): string {
  return toCsv(records.map(recordExportRow), [...RECORD_EXPORT_COLUMNS]);
}

/** Every record, streamed by the server as CSV in one answer; answers how many were written. */
export async function downloadRecords(): Promise<{ count: number; fileName: string }> {
  let lines = 0;
  const blob = await apiDownload(exportRoutes.exportRecords, { query: { format: 'csv' } }, (chunk) => {
    for (const b of chunk) if (b === 10) lines++;
  });
  const fileName = recordExportFileName();
  downloadBlob(fileName, blob);
  return { count: Math.max(0, lines - 1), fileName };
}

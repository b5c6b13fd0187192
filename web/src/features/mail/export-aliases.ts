import { ALIAS_EXPORT_COLUMNS, MAIL_LIST_MAX_LIMIT, mailRoutes, type Alias } from '@mailroom/contract/mail';
import { apiCallWithTotal } from '../../api/client.ts';
import { toCsv, todayStamp } from '../../lib/csv.ts';
import { collectPages } from '../../lib/collect-pages.ts';

/** §9: the file name carries the date. */
export function aliasExportFileName(stamp: string = todayStamp()): string {
  return `aliases-${stamp}.csv`;
}

/** Columns source, destination, status; formula-looking cells are neutralised by toCsv. */
export function aliasesToCsv(aliases: Alias[]): string {
  return toCsv(
    aliases.map((a) => ({ source: a.source, destination: a.destination, status: a.status })),
    [...ALIAS_EXPORT_COLUMNS],
  );
}

/** Every alias, not just the visible page, read from the server in its largest pages. */
export function fetchAllAliases(onProgress?: (done: number, total: number) => void): Promise<Alias[]> {
  return collectPages(
    (offset, limit) => apiCallWithTotal(mailRoutes.listAliases, { query: { offset, limit, sort: 'source' } }),
    MAIL_LIST_MAX_LIMIT,
    onProgress,
  );
}

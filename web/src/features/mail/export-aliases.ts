import { aliasExportRow, exportRoutes } from '@mailroom/contract/exports';
import { ALIAS_EXPORT_COLUMNS, type Alias } from '@mailroom/contract/mail';
import { apiDownload } from '../../api/client.ts';
import { downloadBlob, toCsv, todayStamp } from '../../lib/csv.ts';

/** §9: the file name carries the date. */
export function aliasExportFileName(stamp: string = todayStamp()): string {
  return `aliases-${stamp}.csv`;
}

/** Columns source, destination, status; formula-looking cells are neutralised (as the server's export does). */
export function aliasesToCsv(aliases: Alias[]): string {
  return toCsv(aliases.map(aliasExportRow), [...ALIAS_EXPORT_COLUMNS]);
}

/** Line ends in a chunk of the export: one per alias (after the header). */
function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (const b of chunk) if (b === 10) n++;
  return n;
}

/**
 * Every alias, streamed by the server as CSV in one answer (it reads the table in key order in
 * constant memory), saved under the spec's file name; answers the number of aliases written.
 */
export async function downloadAliases(
  onProgress?: (done: number) => void,
): Promise<{ count: number; fileName: string }> {
  let lines = 0;
  const blob = await apiDownload(exportRoutes.exportAliases, { query: { format: 'csv' } }, (chunk) => {
    lines += countLines(chunk);
    onProgress?.(Math.max(0, lines - 1));
  });
  const fileName = aliasExportFileName();
  downloadBlob(fileName, blob);
  return { count: Math.max(0, lines - 1), fileName };
}

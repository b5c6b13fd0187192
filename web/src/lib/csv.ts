import { csvCell as cell } from '@mailroom/contract/csv-cell';
import Papa from 'papaparse';

/** RFC 4180 text with a header row; formula-like text cells get a leading apostrophe. */
export function toCsv(rows: Record<string, unknown>[], columns: string[]): string {
  const lines = [columns.map(cell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Offers text as a file download. */
export function downloadText(fileName: string, text: string, mime = 'text/csv'): void {
  downloadBlob(fileName, new Blob([text], { type: `${mime};charset=utf-8` }));
}

/** Offers bytes (e.g. a streamed export from the server) as a file download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Local date as YYYY-MM-DD, for file names. */
export function todayStamp(date: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/**
 * Header row plus data rows; blank lines are skipped, a byte-order mark is ignored, and files
 * mixing CRLF and LF line ends (hand-edited exports) read the same as clean ones.
 */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const clean = noBom.replace(/\r\n?/g, '\n');
  const result = Papa.parse<string[]>(clean, { skipEmptyLines: 'greedy', newline: '\n' });
  const [header = [], ...rows] = result.data;
  return { header: header.map((h) => h.trim()), rows };
}

// Spreadsheet programs run cells that start with these as formulas (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 cell: formula-like text gets a leading apostrophe, and a cell with a quote, comma
 * or line end is quoted. Shared by the console's exports and the server's streamed exports.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s: string;
  if (typeof value === 'string') {
    s = FORMULA_START.test(value) ? `'${value}` : value;
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    s = String(value);
  } else if (value instanceof Date) {
    s = value.toISOString();
  } else {
    const json = JSON.stringify(value);
    s = FORMULA_START.test(json) ? `'${json}` : json;
  }
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (CRLF-terminated) of the given columns of a row. */
export function csvLine(row: Record<string, unknown>, columns: readonly string[]): string {
  return columns.map((c) => csvCell(row[c])).join(',') + '\r\n';
}

/** The header line of the given columns. */
export function csvHeader(columns: readonly string[]): string {
  return columns.map(csvCell).join(',') + '\r\n';
}

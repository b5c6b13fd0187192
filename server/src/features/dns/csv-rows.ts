export interface CsvRow {
  /** Line number where the row starts, counting from 1. */
  line: number;
  fields: string[];
}

/**
 * RFC 4180 rows from text: comma-separated, fields optionally in double quotes (`""` is a quote,
 * quoted fields may hold commas and line breaks); CRLF or LF line ends. Lines without a quote take
 * a fast path, which keeps large imports quick.
 */
export function* csvRows(text: string): Generator<CsvRow> {
  const n = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = n;
    const raw = text.slice(pos, end);
    if (!raw.includes('"')) {
      const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      yield { line, fields: l.split(',') };
      pos = end + 1;
      line++;
      continue;
    }
    // Slow path: scan one record, which may span several lines.
    const start = line;
    const fields: string[] = [];
    let field = '';
    let i = pos;
    let quoted = false;
    for (; i < n; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else quoted = false;
        } else {
          if (c === '\n') line++;
          field += c;
        }
      } else if (c === '"') {
        quoted = true;
      } else if (c === ',') {
        fields.push(field);
        field = '';
      } else if (c === '\n') {
        break;
      } else if (c !== '\r' || text[i + 1] !== '\n') {
        field += c;
      }
    }
    fields.push(field);
    yield { line: start, fields };
    pos = i + 1;
    line++;
  }
}

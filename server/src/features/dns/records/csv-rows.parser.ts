export interface CsvRow {
  /** Line number where the row starts, counting from 1. */
  line: number;
  fields: string[];
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

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
    // Slow path: scan one record, which may span several lines, a run of plain characters at a time.
    const start = line;
    const fields: string[] = [];
    let field = '';
    let i = pos;
    let quoted = false;
    while (i < n) {
      if (quoted) {
        let q = text.indexOf('"', i);
        if (q === -1) q = n;
        for (let nl = text.indexOf('\n', i); nl !== -1 && nl < q; nl = text.indexOf('\n', nl + 1)) line++;
        field += text.slice(i, q);
        if (q < n && text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          i = q + 2;
        } else {
          quoted = false;
          i = q + 1;
        }
        continue;
      }
      let j = i;
      let c = 0;
      while (j < n) {
        c = text.charCodeAt(j);
        if (c === QUOTE || c === COMMA || c === LF || c === CR) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
      if (j >= n || c === LF) break;
      if (c === QUOTE) quoted = true;
      else if (c === COMMA) {
        fields.push(field);
        field = '';
      } else if (text.charCodeAt(j + 1) !== LF) field += '\r';
      i++;
    }
    fields.push(field);
    yield { line: start, fields };
    pos = i + 1;
    line++;
  }
}

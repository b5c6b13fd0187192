import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { splitPlainCsv } from './plain-csv.parser.ts';

// The importer's csv-parse options: the fast path must give exactly its records.
function csvParse(text: string): string[][] {
  const records: string[][] = parse(text, {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    trim: true,
  });
  return records.map((r) => r.map((f) => f.trim()));
}

describe('splitPlainCsv', () => {
  it.each([
    '',
    '\n',
    '\uFEFF',
    'source,destination\n',
    'source,destination\na@b.com,c@d.com',
    'source,destination\na@b.com,c@d.com\n',
    'source,destination\n\na@b.com,c@d.com\n\n',
    '\uFEFFsource , destination \n  a@b.com ,\tc@d.com\t\n',
    'source,destination,status\na@b.com,c@d.com,disabled\n,\n \nonly-one\n',
    'source,destination\na@b.com,c@d.com,extra,fields\n',
    'source,destination\na@b.com,\n',
  ])('gives the records csv-parse gives for %j', (text) => {
    expect(splitPlainCsv(text)).toEqual(csvParse(text));
  });

  it('leaves quoted fields and \\r line ends to csv-parse', () => {
    expect(splitPlainCsv('source,destination\n"a@b.com",c@d.com\n')).toBeNull();
    expect(splitPlainCsv('source,destination\r\na@b.com,c@d.com\r\n')).toBeNull();
  });
});

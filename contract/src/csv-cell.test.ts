import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, csvLine } from './csv-cell.ts';

describe('csvCell', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('neutralises the formula %j', (v) => {
    expect(csvCell(v).replace(/^"|"$/g, '').startsWith("'")).toBe(true);
  });
  it('quotes quotes, commas and line ends', () => {
    expect(csvCell('a"b')).toBe('"a""b"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
  });
  it('writes numbers, booleans, dates and objects plainly', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(null)).toBe('');
    expect(csvCell(new Date(Date.UTC(2026, 0, 2)))).toBe('2026-01-02T00:00:00.000Z');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
  it('makes CRLF-terminated lines in column order', () => {
    expect(csvHeader(['b', 'a'])).toBe('b,a\r\n');
    expect(csvLine({ a: 1, b: '=x' }, ['b', 'a'])).toBe("'=x,1\r\n");
  });
});

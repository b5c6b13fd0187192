import { describe, expect, it } from 'vitest';
import { csvRows } from './csv-rows.parser.ts';

const rows = (s: string) => [...csvRows(s)].map((r) => [r.line, ...r.fields]);

describe('CSV rows', () => {
  it('splits plain lines, LF or CRLF, keeping empty fields and line numbers', () => {
    expect(rows('a,b,c\r\n\r\nd,,f\n')).toEqual([
      [1, 'a', 'b', 'c'],
      [2, ''],
      [3, 'd', '', 'f'],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(rows('x,"a, ""b""",y\n"multi\nline",z\nlast,row')).toEqual([
      [1, 'x', 'a, "b"', 'y'],
      [2, 'multi\nline', 'z'],
      [4, 'last', 'row'],
    ]);
  });

  it('reads quotes inside a field, a lone CR and an unclosed quote as before', () => {
    expect(rows('a"b,c"d,e\rf,"g""\r\n"\r\nh,"open\nend')).toEqual([
      [1, 'ab,cd', 'e\rf', 'g"\r\n'],
      [3, 'h', 'open\nend'],
    ]);
  });

  it('drops a byte order mark', () => {
    expect(rows('\uFEFFzone,name')).toEqual([[1, 'zone', 'name']]);
  });
});

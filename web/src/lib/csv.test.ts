import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv, todayStamp } from './csv.ts';

describe('toCsv', () => {
  it('writes a header row and CRLF-separated records', () => {
    const text = toCsv(
      [
        { source: 'a@example.com', destination: 'b@example.com', status: 'active' },
        { source: 'c@example.com', destination: 'd@example.com', status: 'disabled' },
      ],
      ['source', 'destination', 'status'],
    );
    expect(text).toBe(
      'source,destination,status\r\na@example.com,b@example.com,active\r\nc@example.com,d@example.com,disabled\r\n',
    );
  });

  it('quotes commas, quotes and line breaks per RFC 4180', () => {
    const text = toCsv([{ a: 'x,y', b: 'say "hi"', c: 'two\nlines' }], ['a', 'b', 'c']);
    expect(text.split('\r\n')[1]).toBe('"x,y","say ""hi""","two\nlines"');
  });

  it.each(['=SUM(A1:A2)', '+1', '-1+2', '@cmd', '\tx', '\rx'])('neutralises formula-like text %j', (v) => {
    const line = toCsv([{ v }], ['v']).split('\r\n')[1]!;
    expect(line.replace(/^"|"$/g, '').startsWith(`'${v.slice(0, 1)}`)).toBe(true);
  });

  it('leaves numbers, empty and missing cells alone', () => {
    expect(toCsv([{ n: -5, e: '', m: null }], ['n', 'e', 'm', 'absent']).split('\r\n')[1]).toBe('-5,,,');
  });

  it('round-trips through parseCsv', () => {
    const rows = [{ source: '=evil', destination: 'a,b@example.com' }];
    const { header, rows: parsed } = parseCsv(toCsv(rows, ['source', 'destination']));
    expect(header).toEqual(['source', 'destination']);
    expect(parsed).toEqual([["'=evil", 'a,b@example.com']]);
  });
});

describe('parseCsv', () => {
  it('reads the header, trims header names, skips blank lines and a BOM', () => {
    const { header, rows } = parseCsv('\ufeff source , destination\n\na@x.io,b@x.io\r\n\r\nc@x.io,\n');
    expect(header).toEqual(['source', 'destination']);
    expect(rows).toEqual([
      ['a@x.io', 'b@x.io'],
      ['c@x.io', ''],
    ]);
  });

  it('answers an empty header for empty text', () => {
    expect(parseCsv('')).toEqual({ header: [], rows: [] });
  });
});

describe('todayStamp', () => {
  it('is YYYY-MM-DD in local time', () => {
    expect(todayStamp(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(todayStamp()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

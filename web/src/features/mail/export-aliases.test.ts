import { describe, expect, it } from 'vitest';
import { aliasesToCsv, aliasExportFileName } from './export-aliases.ts';

describe('alias export', () => {
  it('names the file with the date', () => {
    expect(aliasExportFileName('2025-03-04')).toBe('aliases-2025-03-04.csv');
    expect(aliasExportFileName()).toMatch(/^aliases-\d{4}-\d{2}-\d{2}\.csv$/);
  });
  it('writes source, destination, status and neutralises formula cells', () => {
    const csv = aliasesToCsv([
      {
        source: 'info@example.com',
        destination: 'a@example.com,b@example.com',
        status: 'active',
        system: false,
      },
      { source: '=cmd@example.com', destination: '+x@example.com', status: 'disabled', system: false },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'source,destination,status',
      'info@example.com,"a@example.com,b@example.com",active',
      "'=cmd@example.com,'+x@example.com,disabled",
      '',
    ]);
  });
});

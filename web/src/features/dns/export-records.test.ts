import type { DnsRecord } from '@mailroom/contract/dns';
import { parseCsv } from '../../lib/csv.ts';
import { describe, expect, it } from 'vitest';
import { recordExportFileName, recordsToCsv } from './export-records.ts';

const rec = (over: Partial<DnsRecord>): DnsRecord => ({
  id: 1,
  zone: 'example.com',
  qname: 'www',
  rtype: 'A',
  value: '192.0.2.1',
  ttl: 3600,
  priority: null,
  weight: null,
  port: null,
  ...over,
});

describe('record export', () => {
  it('names the file dns-records-{date}.csv', () => {
    expect(recordExportFileName('2025-03-04')).toBe('dns-records-2025-03-04.csv');
  });

  it('writes the spec columns, the absolute name for the apex, SRV as weight-port-target, and neutralises formula cells', () => {
    const csv = recordsToCsv([
      rec({}),
      rec({ id: 2, qname: '', rtype: 'MX', value: 'mail.example.com', priority: 10 }),
      rec({ id: 3, rtype: 'TXT', value: '=HYPERLINK("http://x","y")' }),
      rec({
        id: 4,
        qname: '_sip._tcp',
        rtype: 'SRV',
        value: 'sip.example.com',
        priority: 10,
        weight: 60,
        port: 5060,
      }),
    ]);
    const { header, rows } = parseCsv(csv);
    expect(header).toEqual(['zone', 'qname', 'rtype', 'value', 'ttl', 'priority']);
    expect(rows).toEqual([
      ['example.com', 'www', 'A', '192.0.2.1', '3600', ''],
      ['example.com', 'example.com.', 'MX', 'mail.example.com', '3600', '10'],
      ['example.com', 'www', 'TXT', `'=HYPERLINK("http://x","y")`, '3600', ''],
      ['example.com', '_sip._tcp', 'SRV', '60 5060 sip.example.com', '3600', '10'],
    ]);
  });
});

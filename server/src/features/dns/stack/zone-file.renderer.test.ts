import { describe, expect, it } from 'vitest';
import {
  type RenderRecord,
  renderZoneFile,
  soaMailbox,
  stableZoneText,
  txtStrings,
} from './zone-file.renderer.ts';

const rec = (r: Partial<RenderRecord> & Pick<RenderRecord, 'qname' | 'rtype' | 'value'>): RenderRecord => ({
  ttl: 300,
  priority: null,
  weight: null,
  port: null,
  ...r,
});

const ZONE = {
  domain: 'example.com',
  defaultTtl: 3600,
  soa: {
    primary: 'ns1.example.com',
    email: 'first.last@example.org',
    serial: 2025010203,
    refresh: 3600,
    retry: 1800,
    expire: 604800,
    minimum: 300,
  },
  records: [
    rec({ qname: '', rtype: 'MX', value: 'mail.example.com', priority: 10 }),
    rec({ qname: '', rtype: 'CAA', value: '0 issue "letsencrypt.org"' }),
    rec({ qname: '', rtype: 'NS', value: 'ns2.other.net', ttl: 7200 }),
    rec({ qname: '*.apps', rtype: 'A', value: '192.0.2.8' }),
    rec({ qname: '_sip._tcp', rtype: 'SRV', value: 'sip.example.com', priority: 10, weight: 60, port: 5060 }),
    rec({ qname: '_null._tcp', rtype: 'SRV', value: '.', priority: 0, weight: 0, port: 0 }),
    rec({ qname: 'docs', rtype: 'CNAME', value: 'www.example.com' }),
    rec({ qname: 'ns1', rtype: 'A', value: '192.0.2.53' }),
    rec({ qname: 'ptr', rtype: 'PTR', value: 'host.example.net' }),
    rec({ qname: 'txt', rtype: 'TXT', value: `quote " backslash \\ tab\t é ${'y'.repeat(260)}` }),
    rec({ qname: 'www', rtype: 'A', value: '192.0.2.1' }),
    rec({ qname: 'www', rtype: 'AAAA', value: '2001:db8::1' }),
  ],
  systemRecords: [
    rec({
      qname: '_dmarc',
      rtype: 'TXT',
      value: 'v=DMARC1; p=quarantine; rua=mailto:postmaster@example.com',
      ttl: 3600,
    }),
  ],
};

describe('zone file renderer', () => {
  it('renders a zone in BIND master-file format (golden file)', async () => {
    await expect(renderZoneFile(ZONE)).toMatchFileSnapshot('./golden/db.example.com');
  });

  it('adds the SOA primary as an apex NS with the TTL of the zone NS set', () => {
    const text = renderZoneFile(ZONE);
    expect(text).toContain('@\t7200\tIN\tNS\tns1.example.com.\n');
    const own = renderZoneFile({
      ...ZONE,
      records: [rec({ qname: '', rtype: 'NS', value: 'ns1.example.com' })],
    });
    expect(own.match(/IN\tNS\tns1\.example\.com\./g)).toHaveLength(1);
  });

  it('splits TXT into ≤ 255-byte strings and escapes quotes, backslashes and non-ASCII bytes', () => {
    expect(txtStrings('')).toBe('""');
    expect(txtStrings('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(txtStrings('é\n')).toBe('"\\195\\169\\010"');
    const long = txtStrings('z'.repeat(600));
    expect(long).toBe(`"${'z'.repeat(255)}" "${'z'.repeat(255)}" "${'z'.repeat(90)}"`);
    // A multi-byte character may straddle a boundary; the bytes are kept in order.
    const straddle = txtStrings('a'.repeat(254) + 'é');
    expect(straddle).toBe(`"${'a'.repeat(254)}\\195" "\\169"`);
  });

  it('writes the SOA mailbox with dots in the local part escaped', () => {
    expect(soaMailbox('hostmaster@Example.com')).toBe('hostmaster.example.com.');
    expect(soaMailbox('first.last@example.com')).toBe('first\\.last.example.com.');
  });

  it('hashes the text without its serial, so only real changes move the serial', () => {
    const a = stableZoneText(renderZoneFile(ZONE));
    const b = stableZoneText(renderZoneFile({ ...ZONE, soa: { ...ZONE.soa, serial: 2099010101 } }));
    expect(a).toBe(b);
    expect(stableZoneText(renderZoneFile({ ...ZONE, defaultTtl: 60 }))).not.toBe(a);
  });
});

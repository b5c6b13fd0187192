import { DNS_SETTINGS_DEFAULTS, isHostName, isIPv4, isIPv6, parseCaa } from '@mailroom/contract/dns';
import { describe, expect, it } from 'vitest';
import { toRelativeName, toTargetHost } from '../zones/dns-names.rules.ts';
import { conflictAtName, normalizeRecord } from './record.rules.ts';

const settings = DNS_SETTINGS_DEFAULTS;

describe('value checks', () => {
  it('knows IPv4 and IPv6 addresses', () => {
    expect(['192.0.2.1', '0.0.0.0', '255.255.255.255'].every(isIPv4)).toBe(true);
    expect(['256.1.1.1', '1.2.3', '01.2.3.4', ' 1.2.3.4'].some(isIPv4)).toBe(false);
    expect(['::1', '2001:db8::1', '1:2:3:4:5:6:7:8', '::ffff:192.0.2.1', '::'].every(isIPv6)).toBe(true);
    expect(['1::2::3', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '1.2.3.4', ':1'].some(isIPv6)).toBe(false);
  });

  it('knows host names and CAA values', () => {
    expect(['mail.example.com', 'example.com.', '_dmarc.example.com', 'localhost'].every(isHostName)).toBe(
      true,
    );
    expect(['-a.com', 'a..b', 'a b', '', 'x'.repeat(64) + '.com'].some(isHostName)).toBe(false);
    expect(parseCaa('0 issue "letsencrypt.org"')).toEqual({
      flags: 0,
      tag: 'issue',
      value: 'letsencrypt.org',
    });
    expect(parseCaa('128 IODEF mailto:ca@example.com')).toEqual({
      flags: 128,
      tag: 'iodef',
      value: 'mailto:ca@example.com',
    });
    expect(parseCaa('0 issue "a"b"')).toBeNull();
  });
});

describe('names relative to the zone', () => {
  it('turns absolute and apex names into the stored form', () => {
    expect(toRelativeName('@', 'example.com')).toBe('');
    expect(toRelativeName('WWW', 'example.com')).toBe('www');
    expect(toRelativeName('www.example.com.', 'example.com')).toBe('www');
    expect(toRelativeName('example.com', 'example.com')).toBe('');
    expect(toRelativeName('www.other.org.', 'example.com')).toBeNull();
    expect(toRelativeName('notexample.com.', 'example.com')).toBeNull();
  });

  it('qualifies host-name values', () => {
    expect(toTargetHost('mail', 'example.com')).toBe('mail.example.com');
    expect(toTargetHost('Mail.Other.net.', 'example.com')).toBe('mail.other.net');
    expect(toTargetHost('.', 'example.com')).toBe('.');
  });
});

describe('record rules', () => {
  it('normalises and applies the settings bounds', () => {
    const ok = normalizeRecord(
      { qname: 'www.example.com.', rtype: 'CNAME', value: 'web', ttl: 300, priority: 5 },
      'example.com',
      settings,
    );
    expect(ok).toEqual({
      record: {
        qname: 'www',
        rtype: 'CNAME',
        value: 'web.example.com',
        ttl: 300,
        priority: null,
        weight: null,
        port: null,
      },
    });
    const low = normalizeRecord(
      { qname: 'a', rtype: 'A', value: '192.0.2.1', ttl: 299 },
      'example.com',
      settings,
    );
    expect(low).toEqual({ problem: { field: 'ttl', message: 'TTL must be between 300 and 86400' } });
  });

  it('keeps a CNAME alone at its name and refuses exact duplicates', () => {
    const a = {
      qname: 'www',
      rtype: 'A' as const,
      value: '192.0.2.1',
      ttl: 300,
      priority: null,
      weight: null,
      port: null,
    };
    const existing = [{ id: 1, rtype: 'A', value: '192.0.2.1', priority: null, weight: null, port: null }];
    expect(conflictAtName({ ...a, rtype: 'CNAME', value: 'x.net' }, existing)?.message).toBe(
      'A CNAME record cannot coexist with other records at www',
    );
    expect(conflictAtName(a, existing)?.message).toBe('An identical record already exists');
    expect(conflictAtName(a, existing, 1)).toBeNull();
    expect(conflictAtName({ ...a, value: '192.0.2.2' }, existing)).toBeNull();
  });
});

import { ZoneCreateRequest, type Zone } from '@mailroom/contract/dns';
import { describe, expect, it } from 'vitest';
import { zodValidate } from '../../lib/zod-form.ts';
import {
  derivedSoaDefaults,
  emptyZoneForm,
  splitPrimaries,
  toZoneCreateRequest,
  toZoneUpdateRequest,
  nsInsideZone,
  validateZoneCreate,
  withDomain,
  zoneToForm,
} from './zone-form-values.ts';

const zone: Zone = {
  domain: 'example.com',
  zoneType: 'primary',
  status: 'active',
  records: 3,
  lastUpdated: '2025-01-01T00:00:00.000Z',
  soa: {
    primary: 'ns1.example.com',
    email: 'admin@example.com',
    serial: 2025010101,
    refresh: 3600,
    retry: 1800,
    expire: 604800,
    minimum: 300,
  },
  primaries: [],
};

describe('zone form values', () => {
  it('starts with the §9 defaults', () => {
    expect(emptyZoneForm()).toMatchObject({
      zoneType: 'primary',
      serial: 1,
      refresh: 3600,
      retry: 1800,
      expire: 604800,
      minimum: 300,
    });
  });

  it('fills the name server from the settings and the admin email from the domain typed', () => {
    expect(derivedSoaDefaults(' Example.COM. ', 'ns.host.net')).toEqual({
      primaryNs: 'ns.host.net',
      adminEmail: 'admin@example.com',
    });
    expect(derivedSoaDefaults('', 'ns.host.net')).toEqual({ primaryNs: '', adminEmail: '' });
    let v = emptyZoneForm();
    v = withDomain(v, 'e', 'ns.host.net');
    v = withDomain(v, 'ex.org', 'ns.host.net');
    expect(v).toMatchObject({ domain: 'ex.org', primaryNs: 'ns.host.net', adminEmail: 'admin@ex.org' });
    // The settings arrived after the domain was typed.
    const late = withDomain(withDomain(emptyZoneForm(), 'ex.org'), 'ex.org', 'ns.host.net');
    expect(late).toMatchObject({ primaryNs: 'ns.host.net', adminEmail: 'admin@ex.org' });
  });

  it('keeps a primary NS or admin email the user typed when the domain changes', () => {
    const v = withDomain(
      {
        ...withDomain(emptyZoneForm(), 'a.com', 'ns.host.net'),
        primaryNs: 'ns.provider.net',
        adminEmail: 'me@x.org',
      },
      'b.com',
      'ns.host.net',
    );
    expect(v).toMatchObject({ primaryNs: 'ns.provider.net', adminEmail: 'me@x.org' });
    expect(withDomain(withDomain(emptyZoneForm(), 'a.com'), '').adminEmail).toBe('');
  });

  it('builds the create request; empty numbers read as required', () => {
    const v = { ...withDomain(emptyZoneForm(), 'example.com', 'ns1.example.net'), serial: '' };
    const req = toZoneCreateRequest(v);
    expect(req).toMatchObject({
      domain: 'example.com',
      zoneType: 'primary',
      primaryNs: 'ns1.example.net',
      serial: undefined,
    });
    expect(req).not.toHaveProperty('primaries');
    const errors = zodValidate(ZoneCreateRequest, toZoneCreateRequest)(v);
    expect(errors).toEqual({ serial: 'Serial Number is required' });
  });

  it('shows the spec messages for a bad domain and email', () => {
    const v = { ...emptyZoneForm(), domain: 'not a domain', primaryNs: 'ns1.x.com', adminEmail: 'nope' };
    const errors = zodValidate(ZoneCreateRequest, toZoneCreateRequest)(v);
    expect(errors.domain).toBe('Please enter a valid domain name');
    expect(errors.adminEmail).toBe('Please enter a valid email address');
  });

  it('asks for primary servers on a secondary zone', () => {
    const v = {
      ...withDomain(emptyZoneForm(), 'example.com', 'ns1.example.net'),
      zoneType: 'secondary' as const,
      primaries: '192.0.2.1, 2001:db8::1',
    };
    expect(toZoneCreateRequest(v).primaries).toEqual(['192.0.2.1', '2001:db8::1']);
    expect(zodValidate(ZoneCreateRequest, toZoneCreateRequest)({ ...v, primaries: '' })).toEqual({
      primaries: 'Primary Servers is required',
    });
    expect(splitPrimaries(' 192.0.2.1 ;192.0.2.2,, ')).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it('asks for the name server address when the name server lies inside the new zone', () => {
    const v = { ...withDomain(emptyZoneForm(), 'example.com'), primaryNs: 'ns1.example.com.' };
    expect(nsInsideZone(v)).toBe(true);
    expect(nsInsideZone({ ...v, zoneType: 'secondary' })).toBe(false);
    expect(nsInsideZone({ ...v, primaryNs: 'ns1.example.net' })).toBe(false);
    expect(nsInsideZone({ ...v, primaryNs: 'notexample.com' })).toBe(false);
    expect(validateZoneCreate(v)).toEqual({
      nsAddress:
        'Primary Nameserver ns1.example.com lies inside the zone; give its address (Nameserver Address) or use a name outside the zone',
    });
    expect(validateZoneCreate({ ...v, nsAddress: '999.1.1.1' })).toEqual({
      nsAddress: 'Nameserver Address must be an IPv4 or IPv6 address',
    });
    expect(validateZoneCreate({ ...v, nsAddress: '192.0.2.53' })).toEqual({});
    expect(toZoneCreateRequest({ ...v, nsAddress: ' 192.0.2.53 ' }).nsAddress).toBe('192.0.2.53');
    expect(
      toZoneCreateRequest({ ...v, primaryNs: 'ns.other.net', nsAddress: '192.0.2.53' }),
    ).not.toHaveProperty('nsAddress');
  });

  it('edits: the serial is sent only when changed', () => {
    const form = zoneToForm(zone);
    expect(form).toMatchObject({ primaryNs: 'ns1.example.com', serial: 2025010101, minimum: 300 });
    const unchanged = toZoneUpdateRequest({ ...form, refresh: 7200 }, zone);
    expect(unchanged).toEqual({
      primaryNs: 'ns1.example.com',
      adminEmail: 'admin@example.com',
      refresh: 7200,
      retry: 1800,
      expire: 604800,
      minimum: 300,
    });
    expect(toZoneUpdateRequest({ ...form, serial: 2025010199 }, zone).serial).toBe(2025010199);
  });
});

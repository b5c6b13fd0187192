import { RecordAddRequest, type DnsRecord } from '@mailroom/contract/dns';
import { describe, expect, it } from 'vitest';
import {
  displayName,
  emptyRecordForm,
  recordToForm,
  toRecordAddRequest,
  toRecordInput,
} from './record-form-values.ts';
import { recordPath } from './record-path.ts';
import { zodValidate } from '../../lib/zod-form.ts';

const validate = zodValidate(RecordAddRequest, toRecordAddRequest);

describe('record form values', () => {
  it('starts with the §9 defaults: type A, TTL 3600, priority 10', () => {
    expect(emptyRecordForm('example.com')).toMatchObject({
      zone: 'example.com',
      rtype: 'A',
      ttl: 3600,
      priority: 10,
    });
  });

  it('sends priority only for MX and SRV, weight and port only for SRV', () => {
    const a = toRecordAddRequest({ ...emptyRecordForm('example.com'), qname: 'www', value: '192.0.2.1' });
    expect(a).toMatchObject({ priority: null, weight: null, port: null });
    const mx = toRecordAddRequest({
      ...emptyRecordForm('example.com'),
      rtype: 'MX',
      qname: '@',
      value: 'mail.example.com',
      priority: 5,
    });
    expect(mx).toMatchObject({ qname: '', priority: 5, weight: null, port: null });
    const srv = toRecordInput({
      ...emptyRecordForm('example.com'),
      rtype: 'SRV',
      qname: '_sip._tcp',
      value: 'sip.example.com',
      priority: 10,
      weight: 60,
      port: 5060,
    });
    expect(srv).toEqual({
      rtype: 'SRV',
      qname: '_sip._tcp',
      value: 'sip.example.com',
      ttl: 3600,
      priority: 10,
      weight: 60,
      port: 5060,
    });
    expect(srv).not.toHaveProperty('zone');
  });

  it('validates per type with the contract messages', () => {
    const base = emptyRecordForm('example.com');
    expect(validate({ ...base, qname: 'www', value: '300.1.1.1' })).toEqual({
      value: 'Value must be a valid IPv4 address',
    });
    expect(validate({ ...base, qname: 'www', value: '192.0.2.1', ttl: '' })).toEqual({
      ttl: 'TTL is required',
    });
    expect(validate({ ...base, rtype: 'MX', qname: '', value: 'mail.example.com', priority: '' })).toEqual({
      priority: 'Priority is required',
    });
    expect(
      validate({
        ...base,
        rtype: 'SRV',
        qname: '_sip._tcp',
        value: 'sip.example.com',
        priority: 1,
        weight: 70000,
        port: '',
      }),
    ).toEqual({ weight: 'Weight must be at most 65535', port: 'Port is required' });
    expect(
      validate({
        ...base,
        rtype: 'SRV',
        qname: '_sip._tcp',
        value: 'sip.example.com',
        priority: 1,
        weight: 5,
        port: 5060,
      }),
    ).toEqual({});
  });

  it('fills the edit form from a record and shows @ for the apex', () => {
    const r: DnsRecord = {
      id: 7,
      zone: 'example.com',
      qname: '',
      rtype: 'MX',
      value: 'mx.example.com',
      ttl: 300,
      priority: 20,
      weight: null,
      port: null,
    };
    expect(recordToForm(r)).toMatchObject({ qname: '', priority: 20, weight: '', port: '' });
    expect(displayName(r.qname)).toBe('@');
    expect(displayName('www')).toBe('www');
    expect(recordPath(r)).toEqual({
      params: { zone: 'example.com', qname: '@', rtype: 'MX' },
      query: { id: 7 },
    });
  });
});

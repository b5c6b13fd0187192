import { DNS_SETTINGS_DEFAULTS, DnsSettings } from '@mailroom/contract/dns';
import { describe, expect, it } from 'vitest';
import {
  defaultsKeepingHost,
  NUMBER_FIELDS,
  settingsToForm,
  toSettingsRequest,
} from './settings-form-values.ts';
import { zodValidate } from '../../lib/zod-form.ts';

const current = {
  ...DNS_SETTINGS_DEFAULTS,
  serverHostname: 'ns.example.net',
  primaryNameserver: 'ns1.example.net',
  serverPort: 5353,
  version: 4,
};
const validate = zodValidate(DnsSettings, toSettingsRequest);

describe('settings form values', () => {
  it('copies the settings without the version', () => {
    const form = settingsToForm(current);
    expect(form).not.toHaveProperty('version');
    expect(form.serverPort).toBe(5353);
    expect(form.serverHostname).toBe('ns.example.net');
  });

  it('resets to the §9 defaults but keeps the host names', () => {
    const reset = defaultsKeepingHost(settingsToForm(current));
    expect(reset).toMatchObject({
      serverPort: 53,
      serverProtocol: 'both',
      defaultTtl: 3600,
      maxTtl: 86400,
      minTtl: 300,
      logLevel: 'info',
    });
    expect(reset.serverHostname).toBe('ns.example.net');
    expect(validate(reset)).toEqual({});
  });

  it('sends the version it read, and reads empty numbers as required', () => {
    expect(toSettingsRequest(settingsToForm(current), 4).version).toBe(4);
    expect(NUMBER_FIELDS).toContain('maxCacheSize');
    expect(NUMBER_FIELDS).not.toContain('enableDnssec');
    const errors = validate({ ...settingsToForm(current), serverPort: '', maxCacheSize: 0 });
    expect(errors).toEqual({
      serverPort: 'Server Port is required',
      maxCacheSize: 'Max Cache Size (MB) must be at least 1',
    });
    expect(validate({ ...settingsToForm(current), serverPort: 70000 })).toEqual({
      serverPort: 'Server Port must be at most 65535',
    });
  });
  it('edits the secondary servers as one line of addresses, validated like the server', () => {
    const form = settingsToForm({ ...current, secondaryServers: ['192.0.2.53', '2001:db8::53'] });
    expect(form.secondaryServers).toBe('192.0.2.53, 2001:db8::53');
    expect(
      toSettingsRequest({ ...form, secondaryServers: ' 192.0.2.1,2001:db8::2  192.0.2.3 ' }).secondaryServers,
    ).toEqual(['192.0.2.1', '2001:db8::2', '192.0.2.3']);
    expect(toSettingsRequest({ ...form, secondaryServers: '' }).secondaryServers).toEqual([]);
    expect(validate({ ...form, secondaryServers: 'ns2.example.com' })).toEqual({
      secondaryServers: 'Secondary Servers must be IP addresses (ns2.example.com is not)',
    });
    expect(defaultsKeepingHost(form).secondaryServers).toBe('');
  });
});

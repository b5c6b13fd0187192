import { DNS_SETTINGS_DEFAULTS, type DnsSettings, type DnsSettingsSaveRequest } from '@mailroom/contract/dns';
import { numberOrUndefined, type NumberField } from '../../lib/zod-form.ts';

type NumberKeys = { [K in keyof DnsSettings]: DnsSettings[K] extends number ? K : never }[keyof DnsSettings];

/** The settings form: number inputs may be '' while empty; the secondary servers are one text line. */
export type SettingsFormValues = {
  [K in keyof DnsSettings]: K extends NumberKeys
    ? NumberField
    : K extends 'secondaryServers'
      ? string
      : DnsSettings[K];
};

export const NUMBER_FIELDS = Object.entries(DNS_SETTINGS_DEFAULTS)
  .filter(([, v]) => typeof v === 'number')
  .map(([k]) => k) as NumberKeys[];

/** `192.0.2.1, 2001:db8::1` ⇄ ['192.0.2.1', '2001:db8::1']: commas or spaces separate them. */
export const joinAddresses = (list: readonly string[]) => list.join(', ');
export const splitAddresses = (text: string) => text.split(/[\s,]+/).filter((a) => a !== '');

export function settingsToForm(s: DnsSettings): SettingsFormValues {
  const { serverHostname, primaryNameserver } = s;
  const out = { serverHostname, primaryNameserver } as SettingsFormValues;
  for (const key of Object.keys(DNS_SETTINGS_DEFAULTS) as (keyof typeof DNS_SETTINGS_DEFAULTS)[]) {
    (out as Record<string, unknown>)[key] = s[key];
  }
  out.secondaryServers = joinAddresses(s.secondaryServers ?? []);
  return out;
}

/** The save body: empty numbers become undefined, so the contract says which field is required. */
export function toSettingsRequest(v: SettingsFormValues, version?: number): DnsSettingsSaveRequest {
  const body = { ...v } as Record<string, unknown>;
  for (const key of NUMBER_FIELDS) body[key] = numberOrUndefined(v[key]);
  body.secondaryServers = splitAddresses(v.secondaryServers);
  if (version !== undefined) body.version = version;
  return body as DnsSettingsSaveRequest;
}

/**
 * Reset to Defaults: the §9 values. The host name and primary name server have no fixed default
 * (the server derives them from the machine), so they keep what the form holds.
 */
export function defaultsKeepingHost(current: SettingsFormValues): SettingsFormValues {
  return {
    ...DNS_SETTINGS_DEFAULTS,
    secondaryServers: joinAddresses(DNS_SETTINGS_DEFAULTS.secondaryServers),
    serverHostname: current.serverHostname,
    primaryNameserver: current.primaryNameserver,
  };
}

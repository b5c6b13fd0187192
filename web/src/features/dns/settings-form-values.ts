import { DNS_SETTINGS_DEFAULTS, type DnsSettings, type DnsSettingsSaveRequest } from '@mailroom/contract/dns';
import { numberOrUndefined, type NumberField } from '../../lib/zod-form.ts';

type NumberKeys = { [K in keyof DnsSettings]: DnsSettings[K] extends number ? K : never }[keyof DnsSettings];

/** The settings form: number inputs may be '' while empty. */
export type SettingsFormValues = {
  [K in keyof DnsSettings]: K extends NumberKeys ? NumberField : DnsSettings[K];
};

export const NUMBER_FIELDS = Object.entries(DNS_SETTINGS_DEFAULTS)
  .filter(([, v]) => typeof v === 'number')
  .map(([k]) => k) as NumberKeys[];

export function settingsToForm(s: DnsSettings): SettingsFormValues {
  const { serverHostname, primaryNameserver } = s;
  const out = { serverHostname, primaryNameserver } as SettingsFormValues;
  for (const key of Object.keys(DNS_SETTINGS_DEFAULTS) as (keyof typeof DNS_SETTINGS_DEFAULTS)[]) {
    (out as Record<string, unknown>)[key] = s[key];
  }
  return out;
}

/** The save body: empty numbers become undefined, so the contract says which field is required. */
export function toSettingsRequest(v: SettingsFormValues, version?: number): DnsSettingsSaveRequest {
  const body = { ...v } as Record<string, unknown>;
  for (const key of NUMBER_FIELDS) body[key] = numberOrUndefined(v[key]);
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
    serverHostname: current.serverHostname,
    primaryNameserver: current.primaryNameserver,
  };
}

import {
  ZONE_FORM_DEFAULTS,
  ZoneCreateRequest,
  dnsMessages,
  type Zone,
  type ZoneType,
  type ZoneUpdateRequest,
} from '@mailroom/contract/dns';
import { numberOrUndefined, zodValidate, type NumberField } from '../../lib/zod-form.ts';

export interface ZoneFormValues {
  domain: string;
  zoneType: ZoneType;
  primaryNs: string;
  adminEmail: string;
  serial: NumberField;
  refresh: NumberField;
  retry: NumberField;
  expire: NumberField;
  minimum: NumberField;
  /** Secondary and stub zones: the primary servers' addresses, separated by commas or spaces. */
  primaries: string;
  /** The primary name server's address, needed when its name lies inside the new zone. */
  nsAddress: string;
}

/** §9 defaults: type primary, serial 1, refresh 3600, retry 1800, expire 604800, SOA minimum 300. */
export function emptyZoneForm(): ZoneFormValues {
  return {
    domain: '',
    zoneType: ZONE_FORM_DEFAULTS.zoneType,
    primaryNs: '',
    adminEmail: '',
    serial: ZONE_FORM_DEFAULTS.serial,
    refresh: ZONE_FORM_DEFAULTS.refresh,
    retry: ZONE_FORM_DEFAULTS.retry,
    expire: ZONE_FORM_DEFAULTS.expire,
    minimum: ZONE_FORM_DEFAULTS.minimum,
    primaries: '',
    nsAddress: '',
  };
}

const bare = (h: string) => h.trim().toLowerCase().replace(/\.$/, '');

/** True when a primary zone's name server is named inside the zone itself (ns1.example.com). */
export function nsInsideZone(v: Pick<ZoneFormValues, 'domain' | 'primaryNs' | 'zoneType'>): boolean {
  const ns = bare(v.primaryNs);
  const d = bare(v.domain);
  return v.zoneType === 'primary' && d !== '' && (ns === d || ns.endsWith(`.${d}`));
}

/**
 * The name server and contact a new zone gets unless the administrator types others: the DNS
 * settings' primary name server (a name inside the new zone, such as ns1.{domain}, would need an
 * address record the zone cannot have yet, and named refuses such a zone) and admin@{domain}.
 */
export function derivedSoaDefaults(
  domain: string,
  nameserver = '',
): { primaryNs: string; adminEmail: string } {
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  return { primaryNs: d === '' ? '' : nameserver, adminEmail: d === '' ? '' : `admin@${d}` };
}

/**
 * The form after the domain changed: primary NS and admin email follow the domain while they still
 * hold what was derived before (or nothing); a value the user typed is kept.
 */
export function withDomain(values: ZoneFormValues, domain: string, nameserver = ''): ZoneFormValues {
  const before = derivedSoaDefaults(values.domain, nameserver);
  const after = derivedSoaDefaults(domain, nameserver);
  return {
    ...values,
    domain,
    primaryNs:
      values.primaryNs === '' || values.primaryNs === before.primaryNs ? after.primaryNs : values.primaryNs,
    adminEmail:
      values.adminEmail === '' || values.adminEmail === before.adminEmail
        ? after.adminEmail
        : values.adminEmail,
  };
}

export function splitPrimaries(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function toZoneCreateRequest(v: ZoneFormValues): ZoneCreateRequest {
  return {
    domain: v.domain.trim(),
    zoneType: v.zoneType,
    primaryNs: v.primaryNs.trim(),
    adminEmail: v.adminEmail.trim(),
    serial: numberOrUndefined(v.serial),
    refresh: numberOrUndefined(v.refresh),
    retry: numberOrUndefined(v.retry),
    expire: numberOrUndefined(v.expire),
    minimum: numberOrUndefined(v.minimum),
    ...(v.zoneType === 'primary' ? {} : { primaries: splitPrimaries(v.primaries) }),
    ...(nsInsideZone(v) ? { nsAddress: v.nsAddress.trim() } : {}),
  };
}

const createRules = zodValidate(ZoneCreateRequest, toZoneCreateRequest);

/** The create form's rules: the contract's, plus the address BIND needs for an in-zone name server. */
export function validateZoneCreate(v: ZoneFormValues): Record<string, string> {
  const errors = createRules(v);
  if (!errors.nsAddress && nsInsideZone(v) && v.nsAddress.trim() === '') {
    errors.nsAddress = dnsMessages.nsInsideZone(bare(v.primaryNs));
  }
  return errors;
}

/** The edit form of an existing zone, filled from its SOA block. */
export function zoneToForm(z: Zone): ZoneFormValues {
  return {
    domain: z.domain,
    zoneType: z.zoneType,
    primaryNs: z.soa.primary,
    adminEmail: z.soa.email,
    serial: z.soa.serial,
    refresh: z.soa.refresh,
    retry: z.soa.retry,
    expire: z.soa.expire,
    minimum: z.soa.minimum,
    primaries: z.primaries.join(', '),
    nsAddress: '',
  };
}

/**
 * The SOA edit. The serial is sent only when the administrator changed it: otherwise the server
 * bumps it itself, as on every change.
 */
export function toZoneUpdateRequest(v: ZoneFormValues, original: Zone): ZoneUpdateRequest {
  const serial = numberOrUndefined(v.serial);
  return {
    primaryNs: v.primaryNs.trim(),
    adminEmail: v.adminEmail.trim(),
    ...(serial !== original.soa.serial ? { serial: serial } : {}),
    refresh: numberOrUndefined(v.refresh),
    retry: numberOrUndefined(v.retry),
    expire: numberOrUndefined(v.expire),
    minimum: numberOrUndefined(v.minimum),
    ...(original.zoneType === 'primary' ? {} : { primaries: splitPrimaries(v.primaries) }),
  };
}

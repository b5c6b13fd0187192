import { ListQuery } from '../common.ts';
import { fieldMessages } from '../messages.ts';
import { domainField, emailField, requiredInt } from '../validators.ts';
import { ZONE_TYPES, ZONE_STATUSES, SERIAL_MAX, SOA_TIMER_MAX, zoneLabels } from './constants.ts';
import { isIPv4, isIPv6, isHostName } from './value-checks.ts';
import { z } from 'zod';
import { hostField } from './fields.ts';

// ---------------------------------------------------------------------------------------------
// Zone requests

/** The SOA admin address: the spec's email check, and a host-name domain (it is written into the zone). */
const soaEmailField = (label: string) =>
  emailField(label).refine((v) => isHostName(v.slice(v.lastIndexOf('@') + 1)), fieldMessages.email);

const soaTimers = {
  serial: requiredInt(zoneLabels.serial, 1, SERIAL_MAX),
  refresh: requiredInt(zoneLabels.refresh, 1, SOA_TIMER_MAX),
  retry: requiredInt(zoneLabels.retry, 1, SOA_TIMER_MAX),
  expire: requiredInt(zoneLabels.expire, 1, SOA_TIMER_MAX),
};

const primariesField = z
  .array(
    z
      .string()
      .trim()
      .refine((v) => isIPv4(v) || isIPv6(v), `${zoneLabels.primaries} must be IP addresses`),
  )
  .max(16)
  .optional();

export const ZoneCreateRequest = z
  .object({
    domain: domainField(zoneLabels.domain).transform((v) => v.toLowerCase()),
    zoneType: z.enum(ZONE_TYPES, { error: fieldMessages.required(zoneLabels.zoneType) }),
    primaryNs: hostField(zoneLabels.primaryNs),
    adminEmail: soaEmailField(zoneLabels.adminEmail),
    ...soaTimers,
    minimum: requiredInt(zoneLabels.minimum, 1, SOA_TIMER_MAX).optional(),
    /** Required for secondary and stub zones: where the zone is transferred from. */
    primaries: primariesField,
    /**
     * Address of the primary nameserver when its name lies inside the zone (ns1.example.com for
     * example.com): BIND refuses such a zone without an A/AAAA record for it, so one is added.
     */
    nsAddress: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || isIPv4(v) || isIPv6(v),
        `${zoneLabels.nsAddress} must be an IPv4 or IPv6 address`,
      )
      .optional(),
  })
  .superRefine((z0, ctx) => {
    if (z0.zoneType !== 'primary' && (z0.primaries ?? []).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['primaries'],
        message: fieldMessages.required(zoneLabels.primaries),
      });
    }
  });
export type ZoneCreateRequest = z.input<typeof ZoneCreateRequest>;

/** SOA edit: every field optional; the serial never goes backwards. */
export const ZoneUpdateRequest = z.object({
  primaryNs: hostField(zoneLabels.primaryNs).optional(),
  adminEmail: soaEmailField(zoneLabels.adminEmail).optional(),
  serial: soaTimers.serial.optional(),
  refresh: soaTimers.refresh.optional(),
  retry: soaTimers.retry.optional(),
  expire: soaTimers.expire.optional(),
  minimum: requiredInt(zoneLabels.minimum, 1, SOA_TIMER_MAX).optional(),
  primaries: primariesField,
});
export type ZoneUpdateRequest = z.input<typeof ZoneUpdateRequest>;

export const ZoneParams = z.object({ domain: z.string().min(1).max(253) });
export const ZoneScopedParams = z.object({ zone: z.string().min(1).max(253) });

export const ZoneRemoveRequest = z.object({ confirm: z.boolean().optional() }).nullish();
export const ZoneRemoveQuery = z.object({ force: z.enum(['0', '1', 'true', 'false']).optional() });

export const ZoneListQuery = ListQuery.extend({
  status: z.enum(ZONE_STATUSES).optional(),
});

export const ZoneFile = z.object({
  zone: z.string(),
  serial: z.number().int(),
  /** The BIND-format text, as written under the host root. */
  content: z.string(),
});
export type ZoneFile = z.infer<typeof ZoneFile>;

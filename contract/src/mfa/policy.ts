import { POLICY_METHODS } from './constants.ts';
import { z } from 'zod';

export const MfaPolicy = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  requireMfa: z.boolean(),
  /**
   * Who it applies to: 'admins' (every console administrator), 'domain-admins' (domain
   * administrators) or 'domain:<name>' (that domain's mailbox users and its domain administrators).
   */
  appliesTo: z.string(),
  allowedMethods: z.array(z.enum(POLICY_METHODS)),
  backupCodesEnabled: z.boolean(),
  backupCodesCount: z.number().int(),
  sessionTimeout: z.number().int(),
  trustedDevicesEnabled: z.boolean(),
  trustedDeviceExpiry: z.number().int(),
  lastModified: z.string(),
});
export type MfaPolicy = z.infer<typeof MfaPolicy>;

/** The policy groups (MfaPolicy.appliesTo): the form's "Applies To" choices. */
export const ADMINS_GROUP = 'admins';
export const DOMAIN_ADMINS_GROUP = 'domain-admins';
export const DOMAIN_GROUP_PREFIX = 'domain:';
export const APPLIES_TO_LABELS = {
  admins: 'All administrators',
  'domain-admins': 'Domain administrators',
  domain: 'Users of a domain',
} as const;
export const APPLIES_TO_RE = /^(admins|domain-admins|domain:[a-z0-9.-]+\.[a-z]{2,})$/;

/** "All administrators", "Domain administrators" or "Users of example.com". */
export function appliesToLabel(appliesTo: string): string {
  if (appliesTo === ADMINS_GROUP) return APPLIES_TO_LABELS.admins;
  if (appliesTo === DOMAIN_ADMINS_GROUP) return APPLIES_TO_LABELS['domain-admins'];
  if (appliesTo.startsWith(DOMAIN_GROUP_PREFIX))
    return `Users of ${appliesTo.slice(DOMAIN_GROUP_PREFIX.length)}`;
  return appliesTo;
}
export const MfaPolicyInput = z.object({
  name: z.string().trim().min(1, 'Policy Name is required').max(100, 'Policy Name must be at most 100'),
  description: z.string().trim().max(500, 'Description must be at most 500').default(''),
  enabled: z.boolean().default(true),
  requireMfa: z.boolean().default(true),
  appliesTo: z
    .string()
    .trim()
    .toLowerCase()
    .regex(APPLIES_TO_RE, 'Applies To format is invalid')
    .default('admins'),
  allowedMethods: z
    .array(z.enum(POLICY_METHODS, { error: `Methods must be among ${POLICY_METHODS.join(', ')}` }))
    .min(1, 'Methods must be at least 1'),
  backupCodesEnabled: z.boolean().default(true),
  backupCodesCount: z
    .number()
    .int()
    .min(1, 'Backup Codes must be at least 1')
    .max(20, 'Backup Codes must be at most 20')
    .default(10),
  sessionTimeout: z
    .number()
    .int()
    .min(300, 'Session Timeout must be at least 300')
    .max(7 * 86400, 'Session Timeout must be at most 604800')
    .default(3600),
  trustedDevicesEnabled: z.boolean().default(false),
  trustedDeviceExpiry: z
    .number()
    .int()
    .min(3600, 'Trusted Device Expiry must be at least 3600')
    .max(90 * 86400, 'Trusted Device Expiry must be at most 7776000')
    .default(30 * 86400),
});
export type MfaPolicyInput = z.input<typeof MfaPolicyInput>;

import { ListQuery } from '../common.ts';
import { queryInt } from '../validators.ts';
import { MfaDevice, BackupCodeCounts } from './account.ts';
import { z } from 'zod';

// ---- administration (spec §2.5–2.7, §3.2) ----

export const MfaUser = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  mfaEnabled: z.boolean(),
  mfaMethod: z.string().nullable(),
  mfaDevices: z.array(MfaDevice),
  mfaDevicesCount: z.number().int(),
  backupCodes: BackupCodeCounts,
  backupCodesCount: z.number().int(),
  lastMfaLogin: z.string().nullable(),
  status: z.enum(['active', 'locked', 'enrolment required']),
  lastActivity: z.string().nullable(),
  /** 'console': an administrator; 'mailbox': a mailbox user (id is −mailbox id until its first sign-in). */
  kind: z.enum(['console', 'mailbox']).optional(),
});
export type MfaUser = z.infer<typeof MfaUser>;

/** The users list pages like the mail lists (keyset cursor or offset, X-Total-Count). */
export const MFA_USERS_DEFAULT_LIMIT = 100;
export const MFA_USERS_MAX_LIMIT = 1000;
export const MFA_USER_SORT_FIELDS = ['email', 'lastMfaLogin'] as const;
export const MfaUserListQuery = ListQuery.extend({
  limit: queryInt(1, MFA_USERS_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...MFA_USER_SORT_FIELDS, ...MFA_USER_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${MFA_USER_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  /** Only accounts with (enabled) or without (disabled) an active second factor. */
  mfa: z.enum(['enabled', 'disabled'], { error: 'mfa must be enabled or disabled' }).optional(),
});
export type MfaUserListQuery = z.infer<typeof MfaUserListQuery>;

import { z } from 'zod';
import { ListQuery, OkResponse } from './common.ts';
import { defineRoute } from './route.ts';
import { emailField, passwordField, queryInt } from './validators.ts';

/** Spec §3.2 device types and policy methods. */
export const DEVICE_TYPES = ['TOTP', 'SMS', 'Hardware Token'] as const;
export const POLICY_METHODS = ['TOTP', 'SMS', 'Backup Codes', 'Hardware Token', 'Email'] as const;
export const MFA_METHOD_OPTIONS = ['TOTP', 'SMS', 'Hardware Token', 'Email'] as const;
export const ACTIVITY_ACTIONS = [
  'mfa_login',
  'mfa_setup',
  'mfa_disable',
  'backup_code_used',
  'device_added',
  'device_removed',
] as const;

/** Codes per generation, failed second-factor attempts before a lockout, its length. */
export const BACKUP_CODES_PER_GENERATION = 10;
export const MFA_MAX_FAILED_ATTEMPTS = 5;
export const MFA_LOCKOUT_MINUTES = 15;
/** Security changes need a password or code proved this recently. */
export const REAUTH_WINDOW_MINUTES = 10;

const deviceName = z
  .string()
  .trim()
  .min(1, 'Device Name is required')
  .max(64, 'Device Name must be at most 64');
const code = z.string().trim().min(1, 'Code is required').max(64, 'Code must be at most 64');

export const MfaDevice = z.object({
  id: z.number().int(),
  deviceName: z.string(),
  deviceType: z.enum(DEVICE_TYPES),
  status: z.enum(['active', 'inactive', 'pending']),
  createdAt: z.string(),
  lastUsed: z.string().nullable(),
  isPrimary: z.boolean(),
  trustedDevice: z.boolean(),
  userEmail: z.string(),
});
export type MfaDevice = z.infer<typeof MfaDevice>;

export const BackupCodeCounts = z.object({
  available: z.number().int(),
  used: z.number().int(),
  expired: z.number().int(),
});

export const AccountMfa = z.object({
  email: z.string(),
  enrolRequired: z.boolean(),
  devices: z.array(MfaDevice),
  backupCodes: BackupCodeCounts,
  backupCodesEnabled: z.boolean(),
  allowedMethods: z.array(z.enum(POLICY_METHODS)),
  /** Until when security changes are allowed without proving password or code again (ISO), or null. */
  reauthUntil: z.string().nullable(),
});
export type AccountMfa = z.infer<typeof AccountMfa>;

export const ReauthRequest = z
  .object({
    password: z.string().min(1, 'Password is required').max(1024).optional(),
    code: code.optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: 'Password or code is required',
    path: ['password'],
  });
export const ReauthResponse = z.object({ success: z.literal(true), reauthUntil: z.string() });

export const TotpStartRequest = z.object({ deviceName });
export const TotpStart = z.object({
  deviceId: z.number().int(),
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code (SVG text). */
  qrSvg: z.string(),
});
export type TotpStart = z.infer<typeof TotpStart>;

export const TotpConfirmRequest = z.object({ code });
export const DeviceIdParams = z.object({ id: z.coerce.number().int().positive() });

export const BackupCodesAnswer = z.object({
  /** Shown once: only hashes are stored. */
  codes: z.array(z.string()),
  expiresAt: z.string(),
});
export type BackupCodesAnswer = z.infer<typeof BackupCodesAnswer>;

export const PasswordChangeRequest = z.object({
  currentPassword: z.string().min(1, 'Current Password is required').max(1024),
  newPassword: passwordField('New Password', 12),
});

export const WebauthnRegisterStartRequest = z.object({ deviceName });
export const WebauthnRegisterFinishRequest = z.object({
  deviceName,
  /** RegistrationResponseJSON from @simplewebauthn/browser's startRegistration. */
  credential: z.record(z.string(), z.unknown()),
});

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

export const MfaActivity = z.object({
  id: z.number().int(),
  action: z.enum(ACTIVITY_ACTIONS),
  status: z.enum(['success', 'failed']),
  userEmail: z.string(),
  timestamp: z.string(),
  ipAddress: z.string().nullable(),
});
export type MfaActivity = z.infer<typeof MfaActivity>;

export const MfaStats = z.object({
  totalUsers: z.number().int(),
  mfaEnabledUsers: z.number().int(),
  mfaDisabledUsers: z.number().int(),
  totalMfaDevices: z.number().int(),
  activeMfaDevices: z.number().int(),
  backupCodesGenerated: z.number().int(),
  backupCodesUsed: z.number().int(),
  lastMfaActivity: z.string().nullable(),
  /** Percent of second-factor sign-ins that succeeded (null: none yet). */
  mfaSuccessRate: z.number().nullable(),
  mfaFailureRate: z.number().nullable(),
});
export type MfaStats = z.infer<typeof MfaStats>;

export const MfaDashboard = z.object({
  stats: MfaStats,
  users: z.array(MfaUser),
  policies: z.array(MfaPolicy),
  activity: z.array(MfaActivity),
});
export type MfaDashboard = z.infer<typeof MfaDashboard>;

export const MfaStatus = z.object({
  serviceActive: z.boolean(),
  methods: z.array(z.object({ name: z.string(), available: z.boolean(), note: z.string().nullable() })),
  lastActivity: z.string().nullable(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;

export const MfaEmailRequest = z.object({ email: emailField('Email') });

export const Lockout = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  userName: z.string(),
  lockoutType: z.string(),
  reason: z.string(),
  lockedAt: z.string(),
  expiresAt: z.string(),
  unlockedAt: z.string().nullable(),
  unlockedBy: z.string().nullable(),
  attempts: z.number().int(),
  ipAddress: z.string().nullable(),
  status: z.enum(['active', 'expired', 'unlocked']),
});
export type Lockout = z.infer<typeof Lockout>;

export const RecoveryRequest = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  userName: z.string(),
  requestType: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  requestedAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  reason: z.string(),
  details: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type RecoveryRequest = z.infer<typeof RecoveryRequest>;

export const BackupCodeRow = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  /** Only the last characters: the code itself is shown once, at generation. */
  code: z.string(),
  used: z.boolean(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type BackupCodeRow = z.infer<typeof BackupCodeRow>;

export const RecoveryMethod = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userEmail: z.string(),
  methodType: z.enum(['Email', 'SMS']),
  methodValue: z.string(),
  status: z.string(),
  createdAt: z.string(),
  lastUsed: z.string().nullable(),
  verified: z.boolean(),
});
export type RecoveryMethod = z.infer<typeof RecoveryMethod>;

export const MfaRecovery = z.object({
  requests: z.array(RecoveryRequest),
  lockouts: z.array(Lockout),
  backupCodes: z.array(BackupCodeRow),
  recoveryMethods: z.array(RecoveryMethod),
});
export type MfaRecovery = z.infer<typeof MfaRecovery>;

export const IdParams = z.object({ id: z.coerce.number().int().positive() });

export const RecoveryEmailRequest = z.object({ email: emailField('Email') });
export const RecoveryVerifyRequest = z.object({ code });

export const accountRoutes = {
  addRecoveryEmail: defineRoute({
    method: 'POST',
    path: 'account/recovery-methods',
    summary: 'Add a recovery e-mail address: a verification code is mailed to it',
    tags: ['account'],
    body: RecoveryEmailRequest,
    response: RecoveryMethod,
    audit: 'account.recovery_method.add',
    access: 'self',
  }),
  verifyRecoveryEmail: defineRoute({
    method: 'POST',
    path: 'account/recovery-methods/:id/verify',
    summary: 'Verify a recovery e-mail address with the mailed code',
    tags: ['account'],
    params: DeviceIdParams,
    body: RecoveryVerifyRequest,
    response: RecoveryMethod,
    audit: 'account.recovery_method.verify',
    access: 'self',
  }),
  mfa: defineRoute({
    method: 'GET',
    path: 'account/mfa',
    summary: "The signed-in account's second factors",
    tags: ['account'],
    response: AccountMfa,
    access: 'self',
  }),
  reauth: defineRoute({
    method: 'POST',
    path: 'account/reauth',
    summary: 'Prove the password or a code again before a security change',
    tags: ['account'],
    body: ReauthRequest,
    response: ReauthResponse,
    audit: 'account.reauth',
    access: 'self',
  }),
  totpStart: defineRoute({
    method: 'POST',
    path: 'account/mfa/totp',
    summary: 'Start enrolling an authenticator app: secret and QR code',
    tags: ['account'],
    body: TotpStartRequest,
    response: TotpStart,
    audit: 'account.mfa.totp.start',
    access: 'self',
  }),
  totpConfirm: defineRoute({
    method: 'POST',
    path: 'account/mfa/totp/:id/confirm',
    summary: 'Finish enrolling an authenticator app with its first code',
    tags: ['account'],
    params: DeviceIdParams,
    body: TotpConfirmRequest,
    response: MfaDevice,
    audit: 'account.mfa.totp.confirm',
    access: 'self',
  }),
  setPrimary: defineRoute({
    method: 'POST',
    path: 'account/mfa/devices/:id/primary',
    summary: 'Make a device the primary factor',
    tags: ['account'],
    params: DeviceIdParams,
    response: OkResponse,
    audit: 'account.mfa.device.primary',
    access: 'self',
  }),
  removeDevice: defineRoute({
    method: 'DELETE',
    path: 'account/mfa/devices/:id',
    summary: 'Remove a factor (every session of the account ends)',
    tags: ['account'],
    params: DeviceIdParams,
    response: OkResponse,
    audit: 'account.mfa.device.remove',
    access: 'self',
  }),
  backupCodes: defineRoute({
    method: 'POST',
    path: 'account/mfa/backup-codes',
    summary: 'Generate a new set of backup codes (the old set stops working)',
    tags: ['account'],
    response: BackupCodesAnswer,
    audit: 'account.mfa.backup_codes',
    access: 'self',
  }),
  password: defineRoute({
    method: 'POST',
    path: 'account/password',
    summary: 'Change the password (every session of the account ends)',
    tags: ['account'],
    body: PasswordChangeRequest,
    response: OkResponse,
    audit: 'account.password',
    access: 'self',
  }),
  webauthnRegisterOptions: defineRoute({
    method: 'POST',
    path: 'account/mfa/webauthn/options',
    summary: 'Options to register a passkey or security key',
    tags: ['account'],
    body: WebauthnRegisterStartRequest,
    response: z.record(z.string(), z.unknown()),
    audit: 'account.mfa.webauthn.options',
    access: 'self',
  }),
  webauthnRegister: defineRoute({
    method: 'POST',
    path: 'account/mfa/webauthn',
    summary: 'Register a passkey or security key',
    tags: ['account'],
    body: WebauthnRegisterFinishRequest,
    response: MfaDevice,
    audit: 'account.mfa.webauthn.register',
    access: 'self',
  }),
};

export const mfaRoutes = {
  dashboard: defineRoute({
    method: 'GET',
    path: 'mfa/dashboard',
    summary: 'MFA dashboard: stats, users, policies, recent activity',
    tags: ['mfa'],
    response: MfaDashboard,
  }),
  users: defineRoute({
    method: 'GET',
    path: 'mfa/users',
    summary:
      'Accounts with their MFA state, paged (?q=&limit=&offset=&cursor=&sort=&mfa=); total in X-Total-Count',
    tags: ['mfa'],
    query: MfaUserListQuery,
    response: z.array(MfaUser),
  }),
  devices: defineRoute({
    method: 'GET',
    path: 'mfa/devices',
    summary: 'Every enrolled device',
    tags: ['mfa'],
    response: z.array(MfaDevice),
  }),
  policies: defineRoute({
    method: 'GET',
    path: 'mfa/policies',
    summary: 'MFA policies',
    tags: ['mfa'],
    response: z.array(MfaPolicy),
  }),
  activity: defineRoute({
    method: 'GET',
    path: 'mfa/activity',
    summary: 'Recent MFA activity',
    tags: ['mfa'],
    response: z.array(MfaActivity),
  }),
  status: defineRoute({
    method: 'GET',
    path: 'mfa/status',
    summary: 'Which second-factor methods are available',
    tags: ['mfa'],
    response: MfaStatus,
    access: 'self',
  }),
  enable: defineRoute({
    method: 'POST',
    path: 'mfa/enable',
    summary:
      'Require the account to enrol a second factor: its live sessions reach only enrolment from their next request, and so does its next sign-in',
    tags: ['mfa'],
    body: MfaEmailRequest,
    response: OkResponse,
    audit: 'mfa.enable',
  }),
  disable: defineRoute({
    method: 'POST',
    path: 'mfa/disable',
    summary:
      "Remove every factor and backup code of the account (its sessions end; a mailbox user's app passwords are revoked)",
    tags: ['mfa'],
    body: MfaEmailRequest,
    response: OkResponse,
    audit: 'mfa.disable',
  }),
  createPolicy: defineRoute({
    method: 'POST',
    path: 'mfa/policies',
    summary: 'Add an MFA policy',
    tags: ['mfa'],
    body: MfaPolicyInput,
    response: MfaPolicy,
    audit: 'mfa.policy.create',
  }),
  updatePolicy: defineRoute({
    method: 'PUT',
    path: 'mfa/policies/:id',
    summary: 'Change an MFA policy',
    tags: ['mfa'],
    params: IdParams,
    body: MfaPolicyInput,
    response: MfaPolicy,
    audit: 'mfa.policy.update',
  }),
  deletePolicy: defineRoute({
    method: 'DELETE',
    path: 'mfa/policies/:id',
    summary: 'Delete an MFA policy',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.policy.delete',
  }),
  revokeDevice: defineRoute({
    method: 'DELETE',
    path: 'mfa/devices/:id',
    summary: "Revoke a device (the account's sessions end)",
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.device.revoke',
  }),
  recovery: defineRoute({
    method: 'GET',
    path: 'mfa/recovery',
    summary: 'Recovery requests, lockouts, backup codes and recovery methods',
    tags: ['mfa'],
    response: MfaRecovery,
  }),
  unlock: defineRoute({
    method: 'POST',
    path: 'mfa/lockouts/:id/unlock',
    summary: 'Lift an account lockout',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.lockout.unlock',
  }),
  approveRecovery: defineRoute({
    method: 'POST',
    path: 'mfa/recovery/:id/approve',
    summary: "Approve a recovery request: the account's factors are reset and it enrols at next sign-in",
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.recovery.approve',
  }),
  rejectRecovery: defineRoute({
    method: 'POST',
    path: 'mfa/recovery/:id/reject',
    summary: 'Reject a recovery request',
    tags: ['mfa'],
    params: IdParams,
    response: OkResponse,
    audit: 'mfa.recovery.reject',
  }),
};

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

import type { Generated } from 'kysely';

/** Per-account second-factor state (migration 0013). */
export interface MfaAccountTable {
  id: Generated<number>;
  admin_id: number;
  /** 1: the account must enrol a factor at its next sign-in (admin enable, approved recovery). */
  enrol_required: Generated<number>;
  /** Failed second-factor attempts since the last success or lockout. */
  failed_attempts: Generated<number>;
  last_mfa_login: string | null;
  /** When the last failure counted (ms; migration 0024): older failures decay after the lockout window. */
  failed_at: number | null;
  /** When the last e-mail code of any sign-in of the account was sent (ms; migration 0024). */
  email_code_sent_at: number | null;
}

export interface MfaDeviceTable {
  id: Generated<number>;
  admin_id: number;
  device_name: string;
  /** 'TOTP' | 'Hardware Token' */
  device_type: string;
  /** 'pending' (enrolment not confirmed) | 'active' | 'inactive' */
  status: string;
  is_primary: Generated<number>;
  /** TOTP secret, AES-256-GCM with the key file in the data folder. */
  secret_enc: string | null;
  /** Last accepted TOTP time step: a code is accepted once. */
  last_step: number | null;
  credential_id: string | null;
  public_key: string | null;
  sign_count: number | null;
  transports: string | null;
  created_at: string;
  last_used: string | null;
}

export interface MfaBackupCodeTable {
  id: Generated<number>;
  admin_id: number;
  code_hash: string;
  /** Last characters of the code, for the lists (the code itself is shown once). */
  hint: string;
  used: Generated<number>;
  used_at: string | null;
  created_at: string;
  expires_at: string;
}

export interface MfaChallengeTable {
  id: Generated<number>;
  token_hash: string;
  admin_id: number;
  purpose: string;
  webauthn_challenge: string | null;
  created_at: number;
  expires_at: number;
  ip: string | null;
  /** A mailed sign-in code (migration 0019): hash and expiry, cleared once used. */
  email_code_hash: Generated<string | null>;
  email_code_expires_at: Generated<number | null>;
}

export interface MfaLockoutTable {
  id: Generated<number>;
  admin_id: number;
  lockout_type: string;
  reason: string;
  locked_at: string;
  expires_at: string;
  unlocked_at: string | null;
  unlocked_by: string | null;
  attempts: number;
  ip: string | null;
}

export interface MfaPolicyTable {
  id: Generated<number>;
  name: string;
  description: string;
  enabled: number;
  require_mfa: number;
  /** 'admins' | 'domain:<name>' */
  applies_to: string;
  /** JSON list of 'TOTP' | 'SMS' | 'Backup Codes' | 'Hardware Token' */
  allowed_methods: string;
  backup_codes_enabled: number;
  backup_codes_count: number;
  session_timeout: number;
  trusted_devices_enabled: number;
  trusted_device_expiry: number;
  last_modified: string;
}

export interface MfaTrustedDeviceTable {
  id: Generated<number>;
  admin_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

export interface MfaActivityTable {
  id: Generated<number>;
  at: string;
  admin_id: number | null;
  user_email: string;
  action: string;
  status: string;
  ip: string | null;
}

export interface MfaRecoveryRequestTable {
  id: Generated<number>;
  admin_id: number;
  request_type: string;
  status: string;
  requested_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  reason: string;
  details: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** A way to reach the account for recovery (an e-mail address), verified by a mailed code. */
export interface MfaRecoveryMethodTable {
  id: Generated<number>;
  admin_id: number;
  /** 'Email' (SMS needs a provider: none is configured). */
  method_type: string;
  method_value: string;
  code_hash: string | null;
  code_expires_at: number | null;
  verified: Generated<number>;
  created_at: string;
  last_used: string | null;
}

export interface MfaTables {
  mfa_recovery_methods: MfaRecoveryMethodTable;
  mfa_accounts: MfaAccountTable;
  mfa_devices: MfaDeviceTable;
  mfa_backup_codes: MfaBackupCodeTable;
  mfa_challenges: MfaChallengeTable;
  mfa_lockouts: MfaLockoutTable;
  mfa_policies: MfaPolicyTable;
  mfa_trusted_devices: MfaTrustedDeviceTable;
  mfa_activity: MfaActivityTable;
  mfa_recovery_requests: MfaRecoveryRequestTable;
}

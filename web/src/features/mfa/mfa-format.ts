/** A stored ISO time as local date and time, or Never. */
export function when(iso: string | null | undefined): string {
  if (!iso) return 'Never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function percent(v: number | null): string {
  return v === null ? '—' : `${v.toFixed(1)}%`;
}

export const ACTION_LABELS: Record<string, string> = {
  mfa_login: 'MFA sign-in',
  mfa_setup: 'MFA setup',
  mfa_disable: 'MFA disabled',
  backup_code_used: 'Backup code used',
  device_added: 'Device added',
  device_removed: 'Device removed',
};

/**
 * One MFA state per person, the same on /mfa and /mfa/management (badge, toggle, export):
 * enabled (an active factor), required (must enrol at the next sign-in, none yet), disabled.
 */
export type MfaState = 'enabled' | 'required' | 'disabled';
export function mfaStateOf(u: { mfaEnabled: boolean; status: string }): MfaState {
  return u.mfaEnabled ? 'enabled' : u.status === 'enrolment required' ? 'required' : 'disabled';
}
export const MFA_STATE_LABEL: Record<MfaState, string> = {
  enabled: 'Enabled',
  required: 'Required, not enrolled',
  disabled: 'Disabled',
};

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

/** The one query-key factory of the MFA area; invalidate only through it. */
export const mfaKeys = {
  all: ['mfa'] as const,
  dashboard: () => ['mfa', 'dashboard'] as const,
  status: () => ['mfa', 'status'] as const,
  users: () => ['mfa', 'users'] as const,
  devices: () => ['mfa', 'devices'] as const,
  policies: () => ['mfa', 'policies'] as const,
  recovery: () => ['mfa', 'recovery'] as const,
  accounts: () => ['mfa', 'accounts'] as const,
};

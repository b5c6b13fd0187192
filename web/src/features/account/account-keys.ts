/** The one query-key factory of the signed-in account's own page; invalidate only through it. */
export const accountKeys = {
  all: ['account'] as const,
  mfa: () => ['account', 'mfa'] as const,
  appPasswords: () => ['account', 'app-passwords'] as const,
};

import type { authRoutes as contractAuthRoutes } from '@mailroom/contract/auth';

/**
 * The auth catalogue entries without their zod schemas. The sign-in page and the startup
 * check use these so that /login does not download zod; auth-routes.test.ts checks that method,
 * base and path match the contract's entries.
 */
export const authRoutes = {
  login: { method: 'POST', base: '/auth', path: 'login', summary: 'Sign in', tags: ['auth'] },
  logout: { method: 'POST', base: '/auth', path: 'logout', summary: 'Sign out', tags: ['auth'] },
  status: { method: 'GET', base: '/auth', path: 'status', summary: 'Session status', tags: ['auth'] },
  mfaVerify: { method: 'POST', base: '/auth', path: 'mfa/verify', summary: 'Second step', tags: ['auth'] },
  mfaWebauthnOptions: {
    method: 'POST',
    base: '/auth',
    path: 'mfa/webauthn-options',
    summary: 'Passkey options',
    tags: ['auth'],
  },
  mfaEmailCode: {
    method: 'POST',
    base: '/auth',
    path: 'mfa/email-code',
    summary: 'Mail a code',
    tags: ['auth'],
  },
  mfaRecovery: {
    method: 'POST',
    base: '/auth',
    path: 'mfa/recovery',
    summary: 'Lost my device',
    tags: ['auth'],
  },
} as unknown as typeof contractAuthRoutes;

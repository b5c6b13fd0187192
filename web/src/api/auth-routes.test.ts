import { authRoutes as contract } from '@mailroom/contract/auth';
import { describe, expect, it } from 'vitest';
import { authRoutes } from './auth-routes.ts';

describe('zod-free auth entries', () => {
  it.each(['login', 'logout', 'status', 'mfaVerify', 'mfaWebauthnOptions', 'mfaRecovery'] as const)(
    '%s matches the contract catalogue',
    (name) => {
      const { method, base, path } = contract[name];
      expect({
        method: authRoutes[name].method,
        base: authRoutes[name].base,
        path: authRoutes[name].path,
      }).toEqual({
        method,
        base,
        path,
      });
    },
  );
});

import { authRoutes } from '../api/auth-routes.ts';
import { Center, Loader } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { clearLogin, getApiKey, setUserKind } from '../api/auth-store.ts';
import { ApiError, apiCall } from '../api/client.ts';
import { rememberStartupStatus } from './startup-status.ts';

/**
 * Spec §4: with a stored key, ask /auth/status first. Only the server's word signs out: a 401, or
 * an answer that says the session is not live. A fetch that is aborted (a reload in the middle of
 * the check), times out or fails keeps the key; the first real call decides then.
 */
export function AuthBootstrap({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(() => getApiKey() === null);

  useEffect(() => {
    if (ready) return;
    let active = true;
    apiCall(authRoutes.status)
      .then((r) => {
        if (!r.authenticated) clearLogin();
        else setUserKind(r.kind);
        rememberStartupStatus(r);
      })
      .catch((err: unknown) => {
        // The client already signs out on a 401 (sessionExpired); make sure of it here too.
        if (err instanceof ApiError && err.status === 401) clearLogin();
      })
      .finally(() => {
        if (active) setReady(true);
      });
    return () => {
      active = false;
    };
    // Runs once at startup only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!ready) {
    return (
      <Center h="100vh" role="status" aria-label="Checking sign-in">
        <Loader aria-hidden />
      </Center>
    );
  }
  return <>{children}</>;
}

import { authRoutes } from '../api/auth-routes.ts';
import { Center, Loader } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { clearLogin, getApiKey } from '../api/auth-store.ts';
import { apiCall } from '../api/client.ts';

/** Spec §4: with a stored key, ask /auth/status first; drop the key if it is not live (or on error). */
export function AuthBootstrap({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(() => getApiKey() === null);

  useEffect(() => {
    if (ready) return;
    let active = true;
    apiCall(authRoutes.status)
      .then((r) => {
        if (!r.authenticated) clearLogin();
      })
      .catch(() => clearLogin())
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

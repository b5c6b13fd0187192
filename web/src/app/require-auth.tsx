import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isMailboxUser, useAuth } from '../api/auth-store.ts';

/** Console routes need a stored login (spec §2); without one, or after a 401, it is /login. */
export function RequireAuth() {
  const { signedIn } = useAuth();
  const location = useLocation();
  // The page the user was on goes along, so that signing in again (after a 401) returns to it.
  if (!signedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

export function PageLoader() {
  return (
    <Center h="60vh" role="status" aria-label="Loading page">
      <Loader aria-hidden />
    </Center>
  );
}

/** The console shell is for console accounts: a mailbox user is taken to /account. */
export function RequireConsole() {
  if (isMailboxUser()) return <Navigate to="/account" replace />;
  return <Outlet />;
}

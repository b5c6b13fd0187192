import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useAuth } from '../api/auth-store.ts';

/** Console routes need a stored login (spec §2); without one, or after a 401, it is /login. */
export function RequireAuth() {
  const { signedIn } = useAuth();
  if (!signedIn) return <Navigate to="/login" replace />;
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

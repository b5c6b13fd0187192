import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { authRoutes } from '../../api/auth-routes.ts';
import { apiCall } from '../../api/client.ts';
import { PageLoader } from '../require-auth.tsx';
import { startupStatus } from '../startup-status.ts';

export type ConsoleRole = 'admin' | 'domain-admin';

export interface Access {
  /** null while the status is loading. */
  role: ConsoleRole | null;
  domains: string[];
}

/** The pages a domain administrator can use (the API answers 403 everywhere else). */
export const DOMAIN_ADMIN_PAGES = [
  '/mail/mailboxes',
  '/mail/aliases',
  '/mail/domains',
  '/dns/zones',
  '/dns/records',
];
/** Where a domain administrator starts (the dashboard is an administrator's page). */
export const DOMAIN_ADMIN_HOME = '/mail/mailboxes';

export function canOpen(role: ConsoleRole | null, pathname: string): boolean {
  if (role === 'admin') return true;
  const path = pathname.replace(/\/+$/, '') || '/';
  return DOMAIN_ADMIN_PAGES.some((p) => path === p || path.startsWith(`${p}/`));
}

/** Who is signed in, from /auth/status (role and domains are read by the server on each call). */
export function useAccess(): Access {
  // The startup check already asked: the first page paints without a second round trip.
  const startup = startupStatus();
  const status = useQuery({
    queryKey: ['auth', 'status'],
    queryFn: () => apiCall(authRoutes.status),
    staleTime: 60_000,
    initialData: startup?.data,
    initialDataUpdatedAt: startup?.at,
  });
  const d = status.data;
  // The server enforces every route: a status that cannot be read shows the full console (its
  // pages then answer what the server allows), never a console stuck loading.
  if (status.isError) return { role: 'admin', domains: [] };
  if (!d) return { role: null, domains: [] };
  return {
    role: d.role === 'admin' || d.role === undefined ? 'admin' : 'domain-admin',
    domains: d.domains ?? [],
  };
}

/**
 * The page outlet for the signed-in role: a domain administrator opening a page that is not theirs
 * sees a clear "not allowed" state (the dashboard sends them to their mailboxes).
 */
export function AccessGate({ access, children }: { access: Access; children: ReactNode }) {
  const { pathname } = useLocation();
  if (access.role === null) return <PageLoader />;
  if (canOpen(access.role, pathname)) return <>{children}</>;
  if (pathname === '/dashboard' || pathname === '/dashboard/')
    return <Navigate to={DOMAIN_ADMIN_HOME} replace />;
  return (
    <Stack maw={640} gap="md">
      <Title order={1} size="h2">
        Not allowed
      </Title>
      <Alert
        color="orange"
        icon={<IconLock size={18} aria-hidden />}
        title="This page is not available to your account"
      >
        Your account manages the mailboxes, aliases and DNS zones of{' '}
        {access.domains.join(', ') || 'its domains'} only.{' '}
        <Anchor component={Link} to={DOMAIN_ADMIN_HOME} size="sm">
          Go to your mailboxes
        </Anchor>
      </Alert>
    </Stack>
  );
}

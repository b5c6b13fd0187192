import { useQuery } from '@tanstack/react-query';
import { authRoutes } from './auth-routes.ts';
import { apiCall } from './client.ts';

/**
 * Whether the signed-in console account is a full administrator, who may use the actions whose
 * routes carry no `access: 'domain'` (they answer 403 to a domain administrator): imports, bulk
 * deletes, adding and removing domains and zones. Reads the shell's /auth/status query (same key:
 * no extra request; the shell shows pages only once it has answered). Like the shell, only an
 * account the status names a domain administrator is restricted (the server still decides).
 */
export function useIsFullAdmin(): boolean {
  const { data } = useQuery({
    queryKey: ['auth', 'status'],
    queryFn: () => apiCall(authRoutes.status),
    staleTime: 60_000,
  });
  return data?.role !== 'domain-admin';
}

import { useQuery } from '@tanstack/react-query';
import { authRoutes } from './auth-routes.ts';
import { apiCall } from './client.ts';

/**
 * Whether the signed-in console account is a full administrator, who may use the actions whose
 * routes carry no `access: 'domain'` (they answer 403 to a domain administrator): imports, bulk
 * deletes, adding and removing domains and zones. Reads the shell's /auth/status query (same key:
 * no extra request). Like the shell, a status that cannot be read counts as an administrator (the
 * server still decides); false while it loads.
 */
export function useIsFullAdmin(): boolean {
  const { data, isError } = useQuery({
    queryKey: ['auth', 'status'],
    queryFn: () => apiCall(authRoutes.status),
    staleTime: 60_000,
  });
  if (isError) return true;
  return data !== undefined && (data.role === undefined || data.role === 'admin');
}

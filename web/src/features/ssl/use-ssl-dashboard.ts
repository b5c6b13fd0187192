import { sslRoutes } from '@mailroom/contract/ssl';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** Counters, the certificates expiring first and recent activity, aggregated by the server. */
export function useSslDashboard() {
  return useQuery({
    queryKey: sslKeys.dashboard(),
    queryFn: () => apiCall(sslRoutes.dashboard, { query: { limit: 50 } }),
  });
}

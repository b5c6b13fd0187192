import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** How many zones the dashboard lists. */
export const DASHBOARD_ZONE_LIMIT = 10;

/** Counters, name server status and the first zones, aggregated by the server. */
export function useDnsDashboard() {
  return useQuery({
    queryKey: dnsKeys.dashboard(),
    queryFn: () => apiCall(dnsRoutes.dashboard, { query: { limit: DASHBOARD_ZONE_LIMIT } }),
  });
}

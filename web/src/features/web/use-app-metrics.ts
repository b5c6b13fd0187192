import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** How often the panel asks again (the server reads the endpoint every 30 s). */
const METRICS_REFRESH_MS = 15_000;

/** The latest reading of an application's Monitoring Endpoint (or why there is none). */
export function useAppMetrics(name: string | null) {
  return useQuery({
    queryKey: webKeys.appMetrics(name ?? ''),
    queryFn: () => apiCall(webRoutes.appMetrics, { params: { name: name ?? '' }, background: true }),
    enabled: name !== null,
    refetchInterval: METRICS_REFRESH_MS,
  });
}

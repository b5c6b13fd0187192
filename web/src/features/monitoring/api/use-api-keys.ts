import { apiKeyRoutes, type StatsWindow } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { API_MONITORING_REFRESH_MS, apiMonitoringKeys } from './api-monitoring-keys.ts';

/** The API keys with their figures over the page's window. */
export function useApiKeys(window: StatsWindow) {
  return useQuery({
    queryKey: apiMonitoringKeys.keys(window),
    queryFn: () => apiCall(apiKeyRoutes.list, { query: { window } }),
    refetchInterval: API_MONITORING_REFRESH_MS,
  });
}

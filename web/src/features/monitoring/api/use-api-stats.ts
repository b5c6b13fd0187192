import { apiMonitoringRoutes, type StatsWindow } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { API_MONITORING_REFRESH_MS, apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useApiStats(window: StatsWindow) {
  return useQuery({
    queryKey: apiMonitoringKeys.stats(window),
    queryFn: () => apiCall(apiMonitoringRoutes.stats, { query: { window } }),
    refetchInterval: API_MONITORING_REFRESH_MS,
  });
}

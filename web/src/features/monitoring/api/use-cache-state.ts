import { apiMonitoringRoutes } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { API_MONITORING_REFRESH_MS, apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useCacheState() {
  return useQuery({
    queryKey: apiMonitoringKeys.cache(),
    queryFn: () => apiCall(apiMonitoringRoutes.cache),
    refetchInterval: API_MONITORING_REFRESH_MS,
  });
}

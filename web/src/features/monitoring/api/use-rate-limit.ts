import { apiMonitoringRoutes } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { API_MONITORING_REFRESH_MS, apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useRateLimit() {
  return useQuery({
    queryKey: apiMonitoringKeys.rateLimit(),
    queryFn: () => apiCall(apiMonitoringRoutes.rateLimit),
    refetchInterval: API_MONITORING_REFRESH_MS,
  });
}

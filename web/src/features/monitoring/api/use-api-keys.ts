import { apiKeyRoutes } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { API_MONITORING_REFRESH_MS, apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useApiKeys() {
  return useQuery({
    queryKey: apiMonitoringKeys.keys(),
    queryFn: () => apiCall(apiKeyRoutes.list),
    refetchInterval: API_MONITORING_REFRESH_MS,
  });
}

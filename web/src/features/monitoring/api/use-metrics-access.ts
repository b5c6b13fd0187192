import { apiKeyRoutes } from '@mailroom/contract/api-monitoring';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useMetricsAccess() {
  return useQuery({
    queryKey: apiMonitoringKeys.metricsAccess(),
    queryFn: () => apiCall(apiKeyRoutes.metricsAccess),
  });
}

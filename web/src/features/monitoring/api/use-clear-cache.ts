import { apiMonitoringRoutes } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useClearCache() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(apiMonitoringRoutes.clearCache),
    onSettled: () => qc.invalidateQueries({ queryKey: apiMonitoringKeys.cache() }),
  });
}

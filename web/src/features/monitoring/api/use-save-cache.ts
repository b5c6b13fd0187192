import { apiMonitoringRoutes, type CacheForm } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useSaveCache() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CacheForm) => apiCall(apiMonitoringRoutes.saveCache, { body }),
    onSuccess: (state) => qc.setQueryData(apiMonitoringKeys.cache(), state),
  });
}

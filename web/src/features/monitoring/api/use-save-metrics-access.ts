import { apiKeyRoutes, type MetricsAccess } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useSaveMetricsAccess() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MetricsAccess) => apiCall(apiKeyRoutes.saveMetricsAccess, { body }),
    onSuccess: (state) => qc.setQueryData(apiMonitoringKeys.metricsAccess(), state),
  });
}

import { apiMonitoringRoutes, type RateLimitForm } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useSaveRateLimit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RateLimitForm) => apiCall(apiMonitoringRoutes.saveRateLimit, { body }),
    onSuccess: (state) => qc.setQueryData(apiMonitoringKeys.rateLimit(), state),
  });
}

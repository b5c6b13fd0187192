import { apiKeyRoutes, type CreateApiKey } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKey) => apiCall(apiKeyRoutes.create, { body }),
    onSettled: () => qc.invalidateQueries({ queryKey: apiMonitoringKeys.keysAll() }),
  });
}

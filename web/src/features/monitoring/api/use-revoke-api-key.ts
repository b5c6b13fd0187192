import { apiKeyRoutes } from '@mailroom/contract/api-monitoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { apiMonitoringKeys } from './api-monitoring-keys.ts';

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(apiKeyRoutes.revoke, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: apiMonitoringKeys.keysAll() }),
  });
}

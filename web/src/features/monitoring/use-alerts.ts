import { systemAlertRoutes } from '@mailroom/contract/system-alerts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export const alertsKey = ['system', 'alerts', 'active'] as const;

export function useActiveAlerts(refetchInterval: number | false) {
  return useQuery({
    queryKey: alertsKey,
    queryFn: () => apiCall(systemAlertRoutes.list, { query: { state: 'active' } }),
    refetchInterval,
    retry: false,
  });
}

export function useAcknowledge() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number | 'all') =>
      id === 'all'
        ? apiCall(systemAlertRoutes.acknowledgeAll)
        : apiCall(systemAlertRoutes.acknowledge, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: alertsKey }),
  });
}

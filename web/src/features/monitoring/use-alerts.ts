import { systemAlertRoutes } from '@mailroom/contract/system-alerts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Active Alerts on /monitoring: what is wrong now (open, not acknowledged); resolved ones leave. */
export const alertsKey = ['system', 'alerts', 'open'] as const;

export function useActiveAlerts(refetchInterval: number | false) {
  return useQuery({
    queryKey: alertsKey,
    queryFn: () => apiCall(systemAlertRoutes.list, { query: { state: 'open' } }),
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

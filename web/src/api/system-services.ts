import { systemLiveRoutes } from '@mailroom/contract/system-live';
import { systemMetricsRoutes } from '@mailroom/contract/system-metrics';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

export const servicesKey = ['system', 'services'] as const;

export function useSystemServices(refetchInterval: number | false = false) {
  return useQuery({
    queryKey: servicesKey,
    queryFn: () => apiCall(systemMetricsRoutes.services),
    refetchInterval,
  });
}

export function useServiceAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; action: 'start' | 'stop' | 'restart' }) =>
      apiCall(systemLiveRoutes.serviceAction, { params: { id: v.id }, body: { action: v.action } }),
    onSettled: () => qc.invalidateQueries({ queryKey: servicesKey }),
  });
}

export function useRestartAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(systemLiveRoutes.restartAll),
    onSettled: () => qc.invalidateQueries({ queryKey: servicesKey }),
  });
}

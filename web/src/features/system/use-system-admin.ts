import { systemAdminRoutes as r, type SystemSettingsForm } from '@mailroom/contract/system-admin';
import { systemAlertRoutes } from '@mailroom/contract/system-alerts';
import { systemMetricsRoutes } from '@mailroom/contract/system-metrics';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../api/client.ts';
import { useLiveMetrics } from '../../api/live-metrics.ts';

export const systemKeys = {
  all: ['system-admin'] as const,
  alerts: () => ['system-admin', 'alerts'] as const,
  services: () => ['system-admin', 'services'] as const,
  updates: () => ['system-admin', 'updates'] as const,
  backups: () => ['system-admin', 'backups'] as const,
  settings: () => ['system-admin', 'settings'] as const,
};

/** A call the monitoring area answers; until it exists here, a 404 reads as "not available". */
async function optional<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** The machine's figures, pushed live over the events stream like on the monitoring pages. */
export function useMetrics() {
  return useLiveMetrics();
}

export function useServices() {
  return useQuery({
    queryKey: systemKeys.services(),
    queryFn: () => optional(() => apiCall(systemMetricsRoutes.services)),
    refetchInterval: 15_000,
  });
}

export function useAlerts() {
  return useQuery({
    queryKey: systemKeys.alerts(),
    queryFn: () => apiCall(systemAlertRoutes.list, { query: { state: 'all' } }),
    refetchInterval: 15_000,
  });
}

export function useUpdates() {
  return useQuery({
    queryKey: systemKeys.updates(),
    queryFn: () => apiCall(r.updates),
    // The server answers its last reading at once and reads apt again in the background: while it
    // does, ask again every 2 s until the new list is there.
    refetchInterval: (q) => (q.state.data?.refreshing ? 2000 : false),
  });
}

export function useBackups() {
  return useQuery({ queryKey: systemKeys.backups(), queryFn: () => apiCall(r.backupStatus) });
}

export function useSystemSettings() {
  return useQuery({ queryKey: systemKeys.settings(), queryFn: () => apiCall(r.settings) });
}

export function useAcknowledge() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number | 'all') =>
      id === 'all'
        ? apiCall(systemAlertRoutes.acknowledgeAll)
        : apiCall(systemAlertRoutes.acknowledge, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: systemKeys.alerts() }),
  });
}

export function useSaveSettingsForm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SystemSettingsForm) => apiCall(r.saveForm, { body }),
    onSuccess: (saved) => qc.setQueryData(systemKeys.settings(), saved),
  });
}

export function useSaveSettingValues() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, string>) => apiCall(r.saveValues, { body: { values } }),
    onSuccess: (saved) => qc.setQueryData(systemKeys.settings(), saved),
  });
}

export function useResetSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(r.resetAll),
    onSuccess: (saved) => qc.setQueryData(systemKeys.settings(), saved),
  });
}

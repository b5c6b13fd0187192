import { useQuery } from '@tanstack/react-query';
import { notify } from '../lib/notifications-store.ts';
import { apiCall, errorMessage } from './client.ts';
import { systemRoutes } from './first-screen-routes.ts';
import { queryClient } from './query-client.ts';

/** Shared by the dashboard, the shell's Ctrl+R and any area that shows the machine's status. */
export const systemStatusKey = ['system', 'status'] as const;

export function fetchSystemStatus() {
  return apiCall(systemRoutes.status);
}

export function useSystemStatus() {
  return useQuery({ queryKey: systemStatusKey, queryFn: fetchSystemStatus });
}

/** Fetches the status now (Refresh button, Ctrl+R) and reports the outcome as a notification. */
export async function refreshSystemStatus(): Promise<boolean> {
  try {
    const s = await queryClient.fetchQuery({
      queryKey: systemStatusKey,
      queryFn: fetchSystemStatus,
      staleTime: 0,
    });
    notify({
      type: 'success',
      title: 'System status refreshed',
      message: `Status: ${s.status}`,
      key: 'system-status.refresh',
    });
    return true;
  } catch (err) {
    notify({
      type: 'error',
      title: 'Failed to refresh system status',
      message: errorMessage(err),
      key: 'system-status.refresh',
      actions: [{ label: 'Retry', style: 'primary', onClick: () => void refreshSystemStatus() }],
    });
    return false;
  }
}

import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Restarts the live release (its Restart Command when given, else a signal). */
export function useRestartApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string }) => apiCall(webRoutes.restartApp, { params: { name: v.name } }),
    onSuccess: () => invalidateApps(qc),
  });
}

import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** The row's Start/Stop toggle (spec §4): active -> stopped (inactive), anything else -> started. */
export function useToggleApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string }) => apiCall(webRoutes.toggleApp, { params: { name: v.name } }),
    onSuccess: () => invalidateApps(qc),
  });
}

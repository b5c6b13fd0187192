import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Reads the auto-deploy branch from the remote now; deploys it when it moved. */
export function useCheckAppRemote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string }) => apiCall(webRoutes.checkAppRemote, { params: { name: v.name } }),
    onSuccess: () => invalidateApps(qc),
  });
}

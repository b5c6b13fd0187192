import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Starts a deploy job (clone, build, start, health check, switch); answers the job to follow. */
export function useDeployApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; ref?: string }) =>
      apiCall(webRoutes.deployApp, { params: { name: v.name }, body: v.ref ? { ref: v.ref } : {} }),
    onSuccess: () => invalidateApps(qc),
  });
}

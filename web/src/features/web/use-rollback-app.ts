import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Runs an earlier release again with its own environment, through the health-gated switch (a job). */
export function useRollbackApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; releaseId: number }) =>
      apiCall(webRoutes.rollbackApp, { params: { name: v.name }, body: { releaseId: v.releaseId } }),
    onSuccess: () => invalidateApps(qc),
  });
}

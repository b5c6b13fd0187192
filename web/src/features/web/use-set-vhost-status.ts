import { webRoutes, type VhostStatus } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateVhosts } from './invalidate-web.ts';

/** The row's Enable/Disable toggle: active, inactive (not served) or maintenance. */
export function useSetVhostStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { domain: string; status: VhostStatus }) =>
      apiCall(webRoutes.setStatus, { params: { domain: v.domain }, body: { status: v.status } }),
    onSuccess: () => invalidateVhosts(qc),
  });
}

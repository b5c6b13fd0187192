import { webRoutes, type VirtualHostInput } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateVhosts } from './invalidate-web.ts';

/** Changes the virtual host stored under `domain` (one file rewritten, one reload). */
export function useUpdateVhost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { domain: string; body: VirtualHostInput }) =>
      apiCall(webRoutes.update, { params: { domain: v.domain }, body: v.body }),
    onSuccess: () => invalidateVhosts(qc),
  });
}

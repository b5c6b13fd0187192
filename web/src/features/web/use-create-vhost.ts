import { webRoutes, type VirtualHostInput } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateVhosts } from './invalidate-web.ts';

/** Creates a virtual host; the server checks it with Apache, reloads and probes before answering. */
export function useCreateVhost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: VirtualHostInput) => apiCall(webRoutes.create, { body }),
    onSuccess: () => invalidateVhosts(qc),
  });
}

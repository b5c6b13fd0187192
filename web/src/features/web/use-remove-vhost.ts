import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateVhosts } from './invalidate-web.ts';

/** Deletes a virtual host, keeping its document root's files or deleting them with it. */
export function useRemoveVhost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { domain: string; keepFiles: boolean }) =>
      apiCall(webRoutes.remove, { params: { domain: v.domain }, body: { keepFiles: v.keepFiles } }),
    onSuccess: () => invalidateVhosts(qc),
  });
}

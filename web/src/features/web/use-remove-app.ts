import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Deletes an application: its processes stop, its virtual host goes; its releases kept or deleted. */
export function useRemoveApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; keepFiles: boolean }) =>
      apiCall(webRoutes.removeApp, { params: { name: v.name }, body: { keepFiles: v.keepFiles } }),
    onSuccess: () => invalidateApps(qc),
  });
}

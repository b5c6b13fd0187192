import { webRoutes, type WebApplicationInput } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Changes a web application (the running release keeps its environment until the next deploy). */
export function useUpdateApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; body: WebApplicationInput }) =>
      apiCall(webRoutes.updateApp, { params: { name: v.name }, body: v.body }),
    onSuccess: () => invalidateApps(qc),
  });
}

import { webRoutes, type WebApplicationInput } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateApps } from './invalidate-web.ts';

/** Creates a web application; its virtual host is made (or reused) by the server. */
export function useCreateApp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WebApplicationInput) => apiCall(webRoutes.createApp, { body }),
    onSuccess: () => invalidateApps(qc),
  });
}

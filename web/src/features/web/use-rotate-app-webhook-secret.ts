import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** Makes (or replaces) an application's webhook secret; the answer holds it this once. */
export function useRotateAppWebhookSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string }) =>
      apiCall(webRoutes.rotateAppWebhookSecret, { params: { name: v.name } }),
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: webKeys.appAutoDeploy(v.name) }),
  });
}

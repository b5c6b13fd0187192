import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webhookKeys } from './webhook-keys.ts';

/** Queues a test event to one webhook. */
export function useTestWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(r.testWebhook, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

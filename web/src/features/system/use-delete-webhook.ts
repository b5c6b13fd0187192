import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webhookKeys } from './webhook-keys.ts';

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(r.deleteWebhook, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

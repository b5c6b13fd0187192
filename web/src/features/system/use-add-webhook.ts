import type { BodyOf } from '@mailroom/contract/route';
import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webhookKeys } from './webhook-keys.ts';

export function useAddWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof r.addWebhook>) => apiCall(r.addWebhook, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webhookKeys } from './webhook-keys.ts';

/** The alert webhooks. */
export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: () => apiCall(r.webhooks) });
}

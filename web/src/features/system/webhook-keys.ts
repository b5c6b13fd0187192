import { systemKeys } from './use-system-admin.ts';

/** Query keys of the alert webhooks, under the system administration's (its Refresh covers them). */
export const webhookKeys = {
  list: () => [...systemKeys.all, 'webhooks'] as const,
};

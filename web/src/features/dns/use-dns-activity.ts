import { auditRoutes } from '@mailroom/contract/audit';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

export const ACTIVITY_LIMIT = 10;

/** 'Recent DNS Activity': the newest DNS entries of the audit log. */
export function useDnsActivity() {
  return useQuery({
    queryKey: dnsKeys.activity(),
    queryFn: () => apiCall(auditRoutes.list, { query: { action: 'dns.', limit: ACTIVITY_LIMIT } }),
  });
}

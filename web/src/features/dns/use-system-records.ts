import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** The read-only records derived from the mail domains. */
export function useSystemRecords(enabled = true) {
  return useQuery({
    queryKey: dnsKeys.systemRecords(),
    queryFn: () => apiCall(dnsRoutes.systemRecords),
    enabled,
  });
}

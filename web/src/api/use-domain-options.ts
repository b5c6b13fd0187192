import { dnsRoutes } from '@mailroom/contract/dns';
import { mailRoutes } from '@mailroom/contract/mail';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from './client.ts';
import { sharedKeys } from './shared-keys.ts';

/** The mail domains, as choices (e.g. a policy's "Users of a domain"). */
export function useMailDomainOptions(enabled = true) {
  return useQuery({
    queryKey: sharedKeys.mailDomainOptions(),
    queryFn: () => apiCall(mailRoutes.listDomains),
    enabled,
  });
}

/** The DNS zones, as choices (at most 500). */
export function useDnsZoneOptions() {
  return useQuery({
    queryKey: sharedKeys.dnsZoneOptions(),
    queryFn: () => apiCall(dnsRoutes.listZones, { query: { limit: 500 } }),
  });
}

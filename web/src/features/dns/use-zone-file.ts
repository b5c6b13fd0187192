import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** The rendered BIND zone file, as written under the host root; idle while `domain` is null. */
export function useZoneFile(domain: string | null) {
  return useQuery({
    queryKey: dnsKeys.zoneFile(domain ?? ''),
    queryFn: () => apiCall(dnsRoutes.zoneFile, { params: { zone: domain ?? '' } }),
    enabled: domain !== null && domain !== '',
    staleTime: 0,
  });
}

import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** One zone with its SOA block; idle while `domain` is null. */
export function useZone(domain: string | null) {
  return useQuery({
    queryKey: dnsKeys.zone(domain ?? ''),
    queryFn: () => apiCall(dnsRoutes.getZone, { params: { zone: domain ?? '' } }),
    enabled: domain !== null && domain !== '',
  });
}

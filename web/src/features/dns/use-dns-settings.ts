import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** The DNS settings with the version a save must send back. */
export function useDnsSettings() {
  return useQuery({
    queryKey: dnsKeys.settings(),
    queryFn: () => apiCall(dnsRoutes.getSettings),
    staleTime: 0,
  });
}

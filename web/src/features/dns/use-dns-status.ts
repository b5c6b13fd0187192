import { dnsRoutes } from '@mailroom/contract/dns';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** Result and time of the last render and check of the BIND configuration. */
export function useDnsStatus() {
  return useQuery({ queryKey: dnsKeys.status(), queryFn: () => apiCall(dnsRoutes.status) });
}

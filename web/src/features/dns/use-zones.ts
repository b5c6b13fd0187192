import { dnsRoutes } from '@mailroom/contract/dns';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { dnsKeys, type ZoneListParams } from './dns-keys.ts';

/** One page of zones (q matches the domain on the server), with the total from X-Total-Count. */
export function useZones(query: ZoneListParams, enabled = true) {
  return useQuery({
    queryKey: dnsKeys.zoneList(query),
    queryFn: () => apiCallWithTotal(dnsRoutes.listZones, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

import { dnsRoutes, type RecordListQuery } from '@mailroom/contract/dns';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';

/** One page of records, filtered and searched on the server, with the total from X-Total-Count. */
export function useRecords(query: RecordListQuery) {
  return useQuery({
    queryKey: dnsKeys.recordList(query),
    queryFn: () => apiCallWithTotal(dnsRoutes.listRecords, { query }),
    placeholderData: keepPreviousData,
  });
}

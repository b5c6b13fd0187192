import { webRoutes, type VhostListQuery } from '@mailroom/contract/web';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** One page of virtual hosts from the server (search, status filter, keyset), with its total. */
export function useVhosts(query: VhostListQuery) {
  return useQuery({
    queryKey: webKeys.vhostList(query),
    queryFn: () => apiCallWithTotal(webRoutes.list, { query }),
    placeholderData: keepPreviousData,
  });
}

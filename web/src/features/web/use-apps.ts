import { webRoutes, type AppListQuery } from '@mailroom/contract/web';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/**
 * One page of web applications from the server (search, type and status filters, keyset), with its
 * total. `refetchInterval` keeps a deploying row's status moving without a reload.
 */
export function useApps(query: AppListQuery, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: webKeys.appList(query),
    queryFn: () => apiCallWithTotal(webRoutes.apps, { query }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

import { type ItemsQuery, bulkRoutes } from '@mailroom/contract/bulk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** A page of a run's items with their per-item results. */
export function useBulkItems(id: number | null, q: ItemsQuery, live = false) {
  return useQuery({
    queryKey: bulkKeys.items(id ?? 0, q),
    queryFn: () => apiCall(bulkRoutes.items, { params: { id: id! }, query: q }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    // A plan's items change as the run goes: a view opened later reads them again.
    refetchOnMount: 'always',
    refetchInterval: live ? 2000 : false,
  });
}

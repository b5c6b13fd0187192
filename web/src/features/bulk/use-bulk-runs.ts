import { bulkRoutes } from '@mailroom/contract/bulk';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Active operations and the history; polled every second while something is active. */
export function useBulkRuns() {
  return useQuery({
    queryKey: bulkKeys.runs(),
    queryFn: () => apiCall(bulkRoutes.runs),
    refetchInterval: (q) => (q.state.data?.active.length ? 1000 : 5000),
  });
}

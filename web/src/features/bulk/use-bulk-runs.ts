import { bulkRoutes } from '@mailroom/contract/bulk';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/**
 * Active operations and the history. `live`: the events stream carries the progress
 * (use-bulk-progress-events.ts), so a read now and then refreshes only the measured throughput;
 * without it, polled every second while something is active.
 */
export function useBulkRuns(live = false) {
  return useQuery({
    queryKey: bulkKeys.runs(),
    queryFn: () => apiCall(bulkRoutes.runs),
    refetchInterval: (q) => (q.state.data?.active.length ? (live ? 5000 : 1000) : live ? 30_000 : 5000),
  });
}

import { bulkRoutes } from '@mailroom/contract/bulk';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** One run (a plan, or a run with its ledger counts); polled while it runs (slowly when `live`, see useBulkRuns). */
export function useBulkRun(id: number | null, live = false) {
  return useQuery({
    queryKey: bulkKeys.run(id ?? 0),
    queryFn: () => apiCall(bulkRoutes.run, { params: { id: id! } }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? (live ? 5000 : 1000) : false),
  });
}

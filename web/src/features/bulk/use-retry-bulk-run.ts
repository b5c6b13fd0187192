import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Retry failed: a new plan of the failed items of a finished run. */
export function useRetryBulkRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(bulkRoutes.retry, { params: { id } }),
    onSuccess: (a) => qc.setQueryData(bulkKeys.run(a.run.id), a.run),
  });
}

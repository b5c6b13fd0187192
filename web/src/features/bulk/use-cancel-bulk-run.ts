import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Cancel: the item in flight finishes, the rest are not processed. */
export function useCancelBulkRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(bulkRoutes.cancel, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: bulkKeys.runs() }),
  });
}

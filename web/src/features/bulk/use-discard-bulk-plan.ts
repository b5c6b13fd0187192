import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Discards a plan that was not started. */
export function useDiscardBulkPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(bulkRoutes.discard, { params: { id } }),
    onSuccess: (_r, id) => qc.invalidateQueries({ queryKey: bulkKeys.run(id) }),
  });
}

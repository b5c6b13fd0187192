import { type BulkOperationId, type SavePreferenceRequest, bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Saves an operation's enable checkbox or configuration (per administrator). */
export function useSaveBulkPreference() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: BulkOperationId; body: SavePreferenceRequest }) =>
      apiCall(bulkRoutes.savePreference, { params: { id: v.id }, body: v.body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: bulkKeys.operations() }),
  });
}

import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Clear History (the audit log keeps every run). */
export function useClearBulkHistory() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(bulkRoutes.clearHistory),
    onSuccess: () => qc.invalidateQueries({ queryKey: bulkKeys.runs() }),
  });
}

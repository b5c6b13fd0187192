import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** Starts a planned run (a destructive one with its count typed). */
export function useStartBulkRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; confirm?: number }) =>
      apiCall(bulkRoutes.start, {
        params: { id: v.id },
        body: v.confirm === undefined ? {} : { confirm: v.confirm },
      }),
    onSuccess: (_a, v) => {
      void qc.invalidateQueries({ queryKey: bulkKeys.runs() });
      void qc.invalidateQueries({ queryKey: bulkKeys.run(v.id) });
    },
  });
}

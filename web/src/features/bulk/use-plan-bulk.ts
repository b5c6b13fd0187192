import { type PlanRequest, bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** The dry run: freezes the target and classifies each item; changes nothing. */
export function usePlanBulk() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanRequest) => apiCall(bulkRoutes.plan, { body }),
    onSuccess: (a) => qc.setQueryData(bulkKeys.run(a.run.id), a.run),
  });
}

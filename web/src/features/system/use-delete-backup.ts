import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { systemKeys } from './use-system-admin.ts';

/** Deletes a backup; the backups list is stale after it, whatever the outcome. */
export function useDeleteBackup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(r.deleteBackup, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: systemKeys.backups() }),
  });
}

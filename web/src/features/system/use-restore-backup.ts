import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Restores a backup over the running system (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useRestoreBackup() {
  return useMutation({ mutationFn: (id: number) => apiCall(r.restoreBackup, { params: { id } }) });
}

import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Restores a backup into a scratch folder and compares it (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useVerifyBackup() {
  return useMutation({ mutationFn: (id: number) => apiCall(r.verifyBackup, { params: { id } }) });
}

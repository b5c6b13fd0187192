import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Starts a backup (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useStartBackup() {
  return useMutation({
    mutationFn: (type: 'full' | 'incremental') => apiCall(r.startBackup, { body: { type } }),
  });
}

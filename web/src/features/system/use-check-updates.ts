import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Starts apt's package-list refresh (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useCheckUpdates() {
  return useMutation({ mutationFn: () => apiCall(r.checkUpdates) });
}

import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Installs the given updates (none: all) (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useInstallUpdates() {
  return useMutation({
    mutationFn: (packages: string[]) => apiCall(r.installUpdates, { body: { packages } }),
  });
}

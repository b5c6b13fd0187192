import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Uninstalls one package (a job: useJobRunner follows it and refreshes the system lists at its end). */
export function useRemovePackage() {
  return useMutation({ mutationFn: (pkg: string) => apiCall(r.removePackage, { body: { package: pkg } }) });
}

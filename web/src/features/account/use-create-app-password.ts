import { appPasswordRoutes } from '@mailroom/contract/app-passwords';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

/** Creates an app password; its secret is in the answer only. */
export function useCreateAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiCall(appPasswordRoutes.create, { body: { name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.appPasswords() }),
  });
}

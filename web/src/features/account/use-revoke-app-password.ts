import { appPasswordRoutes } from '@mailroom/contract/app-passwords';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

export function useRevokeAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(appPasswordRoutes.revoke, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.appPasswords() }),
  });
}

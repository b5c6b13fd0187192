import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

export function useSetPrimaryDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(accountRoutes.setPrimary, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

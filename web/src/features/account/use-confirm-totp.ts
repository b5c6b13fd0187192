import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

export function useConfirmTotp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, code }: { id: number; code: string }) =>
      apiCall(accountRoutes.totpConfirm, { params: { id }, body: { code } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

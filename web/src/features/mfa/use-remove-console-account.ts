import { accountsRoutes } from '@mailroom/contract/accounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

export function useRemoveConsoleAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiCall(accountsRoutes.remove, { params: { email } }),
    onSettled: () => qc.invalidateQueries({ queryKey: mfaKeys.accounts() }),
  });
}

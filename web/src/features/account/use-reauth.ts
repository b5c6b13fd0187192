import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

/** Proves the password again (security changes need it recently). */
export function useReauth() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => apiCall(accountRoutes.reauth, { body: { password } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

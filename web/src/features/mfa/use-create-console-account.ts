import { accountsRoutes } from '@mailroom/contract/accounts';
import type { BodyOf } from '@mailroom/contract/route';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

export function useCreateConsoleAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof accountsRoutes.create>) => apiCall(accountsRoutes.create, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

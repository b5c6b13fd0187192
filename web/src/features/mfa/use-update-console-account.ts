import { accountsRoutes } from '@mailroom/contract/accounts';
import type { BodyOf } from '@mailroom/contract/route';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** A console account's new role, domains and (optionally) password. */
export function useUpdateConsoleAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, body }: { email: string; body: BodyOf<typeof accountsRoutes.update> }) =>
      apiCall(accountsRoutes.update, { params: { email }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

import { sslAcmeRoutes } from '@mailroom/contract/ssl-acme';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** Forgets a directory's ACME account: the next order registers a new one. */
export function useResetAcmeAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (directoryUrl: string) => apiCall(sslAcmeRoutes.resetAccount, { body: { directoryUrl } }),
    onSettled: () => qc.invalidateQueries({ queryKey: sslKeys.acmeAccounts() }),
  });
}

import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Adds a recovery e-mail address; a code is mailed to it. */
export function useAddRecoveryEmail() {
  return useMutation({
    mutationFn: (email: string) => apiCall(accountRoutes.addRecoveryEmail, { body: { email } }),
  });
}

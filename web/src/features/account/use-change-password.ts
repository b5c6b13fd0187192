import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Changes the account's password (every session ends: the caller signs out). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      apiCall(accountRoutes.password, { body }),
  });
}

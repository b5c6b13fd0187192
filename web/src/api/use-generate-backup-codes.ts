import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/**
 * A new set of backup codes for the signed-in account (the previous set stops working). Used by
 * the account page and the MFA recovery page; each refreshes its own lists through its key factory.
 */
export function useGenerateBackupCodes() {
  return useMutation({ mutationFn: () => apiCall(accountRoutes.backupCodes) });
}

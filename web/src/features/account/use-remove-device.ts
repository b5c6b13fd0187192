import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Removes one of the account's own second factors (every session of the account ends). */
export function useRemoveDevice() {
  return useMutation({
    mutationFn: (id: number) => apiCall(accountRoutes.removeDevice, { params: { id } }),
  });
}

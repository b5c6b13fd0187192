import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

/** Registers the key's answer to the options as a second factor. */
export function useRegisterSecurityKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { deviceName: string; credential: Record<string, unknown> }) =>
      apiCall(accountRoutes.webauthnRegister, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** The WebAuthn registration options the browser hands to the security key. */
export function useSecurityKeyOptions() {
  return useMutation({
    mutationFn: (deviceName: string) =>
      apiCall(accountRoutes.webauthnRegisterOptions, { body: { deviceName } }),
  });
}

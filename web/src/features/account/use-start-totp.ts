import { accountRoutes } from '@mailroom/contract/mfa';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Starts an authenticator enrolment: the secret and QR code, confirmed by the first code. */
export function useStartTotp() {
  return useMutation({
    mutationFn: (deviceName: string) => apiCall(accountRoutes.totpStart, { body: { deviceName } }),
  });
}

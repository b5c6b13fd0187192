import { mfaRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** Requires MFA of a user (enrol at the next sign-in) or turns it off (every factor removed). */
export function useSetUserMfa() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, on }: { email: string; on: boolean }) =>
      apiCall(on ? mfaRoutes.enable : mfaRoutes.disable, { body: { email } }),
    onSettled: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

import { mfaRoutes, type MfaPolicyInput } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** Adds a policy (no id) or saves an existing one; every MFA list is stale after it. */
export function useSavePolicy() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: MfaPolicyInput }) =>
      id === null
        ? apiCall(mfaRoutes.createPolicy, { body })
        : apiCall(mfaRoutes.updatePolicy, { params: { id }, body }),
    onSettled: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

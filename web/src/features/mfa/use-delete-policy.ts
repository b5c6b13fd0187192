import { mfaRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** Deletes a policy; every MFA list is stale after it. */
export function useDeletePolicy() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(mfaRoutes.deletePolicy, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

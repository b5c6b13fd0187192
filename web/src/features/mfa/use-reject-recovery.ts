import { mfaRoutes } from '@mailroom/contract/mfa';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

export function useRejectRecovery() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(mfaRoutes.rejectRecovery, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}

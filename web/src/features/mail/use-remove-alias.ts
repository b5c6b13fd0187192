import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateAliases } from './invalidate-mail.ts';

export function useRemoveAlias() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (source: string) => apiCall(mailRoutes.removeAlias, { params: { source } }),
    onSuccess: () => invalidateAliases(qc),
  });
}

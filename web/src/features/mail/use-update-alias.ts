import { mailRoutes, type UpdateAliasRequest } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateAliases } from './invalidate-mail.ts';

export function useUpdateAlias() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { source: string; body: UpdateAliasRequest }) =>
      apiCall(mailRoutes.updateAlias, { params: { source: v.source }, body: v.body }),
    onSuccess: () => invalidateAliases(qc),
  });
}

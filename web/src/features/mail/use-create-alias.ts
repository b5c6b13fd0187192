import { mailRoutes, type CreateAliasRequest } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateAliases } from './invalidate-mail.ts';

export function useCreateAlias() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAliasRequest) => apiCall(mailRoutes.createAlias, { body }),
    onSuccess: () => invalidateAliases(qc),
  });
}

import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateAliases } from './invalidate-mail.ts';

/** Delete the selected aliases in one call (all or none). */
export function useRemoveAliases() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sources: string[]) => apiCall(mailRoutes.removeAliases, { body: { sources } }),
    onSuccess: () => invalidateAliases(qc),
  });
}

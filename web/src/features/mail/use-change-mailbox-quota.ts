import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

export function useChangeMailboxQuota() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { email: string; quota: number }) =>
      apiCall(mailRoutes.changeQuota, { params: { email: v.email }, body: { quota: v.quota } }),
    onSuccess: () => invalidateMailboxes(qc),
  });
}

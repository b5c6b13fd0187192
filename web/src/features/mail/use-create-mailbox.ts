import { mailRoutes, type CreateMailboxRequest } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

export function useCreateMailbox() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMailboxRequest) => apiCall(mailRoutes.createMailbox, { body }),
    onSuccess: () => invalidateMailboxes(qc),
  });
}

import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

/** Deletes a mailbox; the answer says where its mail folder was moved. */
export function useRemoveMailbox() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiCall(mailRoutes.removeMailbox, { params: { email } }),
    onSuccess: () => invalidateMailboxes(qc),
  });
}

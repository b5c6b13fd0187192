import { type BulkMailboxAction, mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

/** Suspend, resume or delete the selected mailboxes in one call (all or none). */
export function useBulkMailboxes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { action: BulkMailboxAction; emails: string[] }) =>
      apiCall(mailRoutes.bulkMailboxes, { body: v }),
    onSuccess: () => invalidateMailboxes(qc),
  });
}

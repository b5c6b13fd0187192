import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

/** Suspend (no sign-in, no delivery, mail kept) or resume a mailbox. */
export function useSetMailboxSuspended() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { email: string; suspended: boolean }) =>
      apiCall(v.suspended ? mailRoutes.suspendMailbox : mailRoutes.resumeMailbox, {
        params: { email: v.email },
      }),
    onSuccess: () => invalidateMailboxes(qc),
  });
}

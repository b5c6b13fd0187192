import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';
import { mailKeys } from './mail-keys.ts';

/** Suspend (no sign-in, no delivery, mail kept) or resume a mailbox. */
export function useSetMailboxSuspended() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { email: string; suspended: boolean }) =>
      apiCall(v.suspended ? mailRoutes.suspendMailbox : mailRoutes.resumeMailbox, {
        params: { email: v.email },
      }),
    // A suspension also revokes the mailbox's app passwords.
    onSuccess: (_res, v) =>
      Promise.all([
        invalidateMailboxes(qc),
        qc.invalidateQueries({ queryKey: mailKeys.appPasswords(v.email) }),
      ]),
  });
}

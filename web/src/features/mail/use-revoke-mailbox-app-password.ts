import { mailboxAppPasswordRoutes } from '@mailroom/contract/app-passwords';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

/** Revokes one app password of a mailbox: IMAP, POP3 and SMTP refuse it from then on. */
export function useRevokeMailboxAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { email: string; id: number }) =>
      apiCall(mailboxAppPasswordRoutes.revoke, { params: { email: v.email, id: v.id } }),
    onSettled: (_res, _err, v) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: mailKeys.appPasswords(v.email) }),
        qc.invalidateQueries({ queryKey: mailKeys.activity() }),
      ]),
  });
}

import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

export function useChangeMailboxPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { email: string; password: string }) =>
      apiCall(mailRoutes.changePassword, { params: { email: v.email }, body: { password: v.password } }),
    // A new password ends the mailbox's console sessions and revokes its app passwords.
    onSuccess: (_res, v) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: mailKeys.activity() }),
        qc.invalidateQueries({ queryKey: mailKeys.appPasswords(v.email) }),
      ]),
  });
}

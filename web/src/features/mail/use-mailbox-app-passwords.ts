import { mailboxAppPasswordRoutes } from '@mailroom/contract/app-passwords';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

/** A mailbox's app passwords (names and dates only), as its administrators see them. */
export function useMailboxAppPasswords(email: string) {
  return useQuery({
    queryKey: mailKeys.appPasswords(email),
    queryFn: () => apiCall(mailboxAppPasswordRoutes.list, { params: { email } }),
  });
}

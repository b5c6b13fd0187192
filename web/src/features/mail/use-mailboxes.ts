import { mailRoutes, type MailboxListQuery } from '@mailroom/contract/mail';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

/** One page of mailboxes from the server, with the total from X-Total-Count. */
export function useMailboxes(query: MailboxListQuery) {
  return useQuery({
    queryKey: mailKeys.mailboxList(query),
    queryFn: () => apiCallWithTotal(mailRoutes.listMailboxes, { query }),
    placeholderData: keepPreviousData,
  });
}

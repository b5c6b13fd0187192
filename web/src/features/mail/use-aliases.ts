import { mailRoutes, type AliasListQuery } from '@mailroom/contract/mail';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

/** One page of aliases (q matches source or destination on the server), with the total. */
export function useAliases(query: AliasListQuery) {
  return useQuery({
    queryKey: mailKeys.aliasList(query),
    queryFn: () => apiCallWithTotal(mailRoutes.listAliases, { query }),
    placeholderData: keepPreviousData,
  });
}

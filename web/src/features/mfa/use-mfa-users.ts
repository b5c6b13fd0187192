import { mfaRoutes, type MfaUserListQuery } from '@mailroom/contract/mfa';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** One page of the MFA users list from the server, with its total and neighbours' cursors. */
export function useMfaUsers(query: MfaUserListQuery) {
  return useQuery({
    queryKey: [...mfaKeys.users(), query] as const,
    queryFn: () => apiCallWithTotal(mfaRoutes.users, { query }),
    placeholderData: keepPreviousData,
  });
}

/** One account's MFA state by its address (a device's owner), or null while none is asked for. */
export function useMfaUserByEmail(email: string | null) {
  const found = useQuery({
    queryKey: [...mfaKeys.users(), 'by-email', email] as const,
    queryFn: () => apiCallWithTotal(mfaRoutes.users, { query: { q: email ?? '', limit: 10 } }),
    enabled: email !== null,
  });
  return email === null ? null : (found.data?.data.find((u) => u.email === email) ?? null);
}

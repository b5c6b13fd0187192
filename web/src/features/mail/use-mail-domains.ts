import { mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateDomains } from './invalidate-mail.ts';
import { mailKeys } from './mail-keys.ts';

/** The mail domains with their counts, DKIM and DNS state. */
export function useMailDomains() {
  return useQuery({ queryKey: mailKeys.domains(), queryFn: () => apiCall(mailRoutes.listDomains, {}) });
}

export function useAddMailDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => apiCall(mailRoutes.addDomain, { body: { domain } }),
    onSuccess: () => invalidateDomains(qc),
  });
}

export function useRemoveMailDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => apiCall(mailRoutes.removeDomain, { params: { domain } }),
    onSuccess: () => invalidateDomains(qc),
  });
}

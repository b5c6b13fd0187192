import { sslAcmeRoutes } from '@mailroom/contract/ssl-acme';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** The ACME accounts Mailroom holds, one per CA directory. */
export function useAcmeAccounts() {
  return useQuery({ queryKey: sslKeys.acmeAccounts(), queryFn: () => apiCall(sslAcmeRoutes.accounts) });
}

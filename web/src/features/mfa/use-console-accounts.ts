import { accountsRoutes } from '@mailroom/contract/accounts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

/** Console accounts: administrators and domain administrators with their domains. */
export function useConsoleAccounts() {
  return useQuery({ queryKey: mfaKeys.accounts(), queryFn: () => apiCall(accountsRoutes.list) });
}

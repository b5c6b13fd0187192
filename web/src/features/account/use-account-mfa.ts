import { accountRoutes } from '@mailroom/contract/mfa';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

export function useAccountMfa() {
  return useQuery({ queryKey: accountKeys.mfa(), queryFn: () => apiCall(accountRoutes.mfa) });
}

export function useRefreshAccount() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: accountKeys.all });
}

import { appPasswordRoutes } from '@mailroom/contract/app-passwords';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { accountKeys } from './account-keys.ts';

/** The signed-in mailbox user's app passwords (and whether the feature is available). */
export function useAppPasswords() {
  return useQuery({ queryKey: accountKeys.appPasswords(), queryFn: () => apiCall(appPasswordRoutes.list) });
}

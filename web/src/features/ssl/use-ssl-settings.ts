import { sslRoutes } from '@mailroom/contract/ssl';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

export function useSslSettings() {
  return useQuery({ queryKey: sslKeys.settings(), queryFn: () => apiCall(sslRoutes.getSettings) });
}

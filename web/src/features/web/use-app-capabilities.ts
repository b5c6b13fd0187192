import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** Application types and fields this server supports, with the reason for the others. */
export function useAppCapabilities() {
  return useQuery({ queryKey: webKeys.appCapabilities(), queryFn: () => apiCall(webRoutes.appCapabilities) });
}

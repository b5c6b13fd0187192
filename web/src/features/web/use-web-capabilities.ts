import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** What the installed Apache and PHP can do: disabled fields with their reason, PHP versions, modules. */
export function useWebCapabilities() {
  return useQuery({ queryKey: webKeys.capabilities(), queryFn: () => apiCall(webRoutes.capabilities) });
}

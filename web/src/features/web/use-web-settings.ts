import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** The web server settings as Mailroom renders them for Apache. */
export function useWebSettings() {
  return useQuery({ queryKey: webKeys.settings(), queryFn: () => apiCall(webRoutes.settings) });
}

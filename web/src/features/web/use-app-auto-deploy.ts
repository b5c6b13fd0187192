import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** Auto deploy of one application: webhook path, whether a secret is set, the last check. */
export function useAppAutoDeploy(name: string | null) {
  return useQuery({
    queryKey: webKeys.appAutoDeploy(name ?? ''),
    queryFn: () => apiCall(webRoutes.appAutoDeploy, { params: { name: name ?? '' } }),
    enabled: name !== null,
  });
}

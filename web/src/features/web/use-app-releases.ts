import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** The release history of an application, newest first (no build log, no environment values). */
export function useAppReleases(name: string | null) {
  return useQuery({
    queryKey: webKeys.appReleases(name ?? ''),
    queryFn: () => apiCall(webRoutes.appReleases, { params: { name: name ?? '' } }),
    enabled: name !== null,
  });
}

import { webRoutes } from '@mailroom/contract/web';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** Lines per page of a release's build log. */
export const RELEASE_LOG_PAGE = 500;

/**
 * One page of the stored build log of a release: the numbered lines of its deploy (or rollback)
 * job after `after`, paged on the server (GET …/deploy-log?jobId=&after=&limit=).
 */
export function useReleaseLog(name: string, jobId: number | null, after: number) {
  return useQuery({
    queryKey: webKeys.appReleaseLog(name, jobId ?? 0, after),
    queryFn: () =>
      apiCall(webRoutes.appDeployLog, {
        params: { name },
        query: { jobId: jobId ?? undefined, after, limit: RELEASE_LOG_PAGE },
      }),
    enabled: jobId !== null,
    placeholderData: keepPreviousData,
  });
}

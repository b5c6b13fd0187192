import { systemLiveRoutes } from '@mailroom/contract/system-live';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { liveKeys } from './use-system-live.ts';

/** What each cleanup target would free for files older than `days` (read while the modal is open). */
export function useCleanupPreview(days: number, enabled: boolean) {
  return useQuery({
    queryKey: liveKeys.cleanup(days),
    queryFn: () => apiCall(systemLiveRoutes.cleanupPreview, { query: { days } }),
    enabled,
    staleTime: 0,
  });
}

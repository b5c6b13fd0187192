import { systemLiveRoutes } from '@mailroom/contract/system-live';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';
import { liveKeys } from './use-system-live.ts';

/** The text of one queued message (read only while one is shown). */
export function useQueueMessage(id: string | null) {
  return useQuery({
    queryKey: liveKeys.queueMessage(id),
    queryFn: () => apiCall(systemLiveRoutes.queueMessage, { params: { id: id! } }),
    enabled: id !== null,
  });
}

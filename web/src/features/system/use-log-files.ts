import { systemLiveRoutes as r } from '@mailroom/contract/system-live';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { liveKeys } from './monitoring/use-system-live.ts';

/** The log files Mailroom writes or manages (Clear Logs). */
export function useLogFiles() {
  return useQuery({ queryKey: liveKeys.logFiles(), queryFn: () => apiCall(r.logFiles) });
}

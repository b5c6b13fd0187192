import { type ClearableLog, systemLiveRoutes as r } from '@mailroom/contract/system-live';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { liveKeys } from './monitoring/use-system-live.ts';

/** Empties the chosen logs' current files and deletes their rotated copies. */
export function useClearLogs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (logs: ClearableLog[]) => apiCall(r.clearLogs, { body: { logs } }),
    onSettled: () => qc.invalidateQueries({ queryKey: liveKeys.all }),
  });
}

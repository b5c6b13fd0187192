import { systemLiveRoutes as r, type LogLevel, type LogSource } from '@mailroom/contract/system-live';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client.ts';

/** The one query-key factory of the monitoring tabs. */
export const liveKeys = {
  all: ['system', 'live'] as const,
  processes: () => ['system', 'live', 'processes'] as const,
  connections: () => ['system', 'live', 'connections'] as const,
  disks: () => ['system', 'live', 'disks'] as const,
  cleanup: (days: number) => ['system', 'live', 'cleanup', days] as const,
  logs: (f: LogFilter) => ['system', 'live', 'logs', f] as const,
  queue: () => ['system', 'live', 'queue'] as const,
  queueMessage: (id: string | null) => ['system', 'live', 'queue', 'message', id] as const,
  logFiles: () => ['system', 'live', 'log-files'] as const,
};

export interface LogFilter {
  source: LogSource;
  level?: LogLevel;
  service?: string;
  search?: string;
}

/** Auto Refresh (spec: a 30 s reload cycle while on, default off). */
export type Every = number | false;

export const useProcesses = (every: Every) =>
  useQuery({ queryKey: liveKeys.processes(), queryFn: () => apiCall(r.processes), refetchInterval: every });
export const useConnections = (every: Every) =>
  useQuery({
    queryKey: liveKeys.connections(),
    queryFn: () => apiCall(r.connections),
    refetchInterval: every,
  });
export const useDisks = (every: Every) =>
  useQuery({ queryKey: liveKeys.disks(), queryFn: () => apiCall(r.disks), refetchInterval: every });
export const useQueue = (every: Every) =>
  useQuery({ queryKey: liveKeys.queue(), queryFn: () => apiCall(r.queue), refetchInterval: every });

export function useLogs(f: LogFilter, every: Every) {
  return useInfiniteQuery({
    queryKey: liveKeys.logs(f),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      apiCall(r.logs, {
        query: {
          source: f.source,
          level: f.level,
          service: f.service || undefined,
          search: f.search || undefined,
          cursor: pageParam,
          limit: 50,
        },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: every,
  });
}

export function useKill() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { pid: number; signal: 'SIGTERM' | 'SIGKILL' }) =>
      apiCall(r.kill, { params: { pid: v.pid }, body: { signal: v.signal } }),
    onSettled: () => qc.invalidateQueries({ queryKey: liveKeys.processes() }),
  });
}

export function useCloseConnection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(r.closeConnection, { body: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: liveKeys.connections() }),
  });
}

export function useCleanup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { kinds: ('apt-cache' | 'rotated-logs' | 'removed-mail')[]; days: number }) =>
      apiCall(r.cleanup, { body: v }),
    onSettled: () => qc.invalidateQueries({ queryKey: liveKeys.all }),
  });
}

export function useQueueAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: string; action: 'delete' | 'requeue' | 'flush' }) =>
      v.action === 'flush'
        ? apiCall(r.queueFlush)
        : apiCall(v.action === 'delete' ? r.queueDelete : r.queueRequeue, { params: { id: v.id! } }),
    onSettled: () => qc.invalidateQueries({ queryKey: liveKeys.queue() }),
  });
}

import { auditRoutes } from '@mailroom/contract/audit';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export interface AuditFilters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

export const AUDIT_PAGE_SIZE = 50;

const orUndefined = (v: string) => (v.trim() ? v.trim() : undefined);

/** The audit log, newest first, one page at a time by cursor ("Load older entries"). */
export function useAuditLog(f: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', f],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      apiCall(auditRoutes.list, {
        query: {
          limit: AUDIT_PAGE_SIZE,
          actor: orUndefined(f.actor),
          action: orUndefined(f.action),
          target: orUndefined(f.target),
          from: orUndefined(f.from),
          to: orUndefined(f.to),
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useAuditActors() {
  return useQuery({
    queryKey: ['audit', 'actors'],
    queryFn: async () => (await apiCall(auditRoutes.actors)).actors,
    staleTime: 60_000,
  });
}

import { auditRoutes } from '@mailroom/contract/audit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
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

/** Where a page of the log is read from: the previous page's cursor (older than an id) or an offset. */
export interface AuditPosition {
  page: number;
  cursor?: number;
}

/**
 * One page of the audit log, newest first: the next page follows the server's cursor (keyset),
 * a jump to another page reads by offset.
 */
export function useAuditLog(f: AuditFilters, pos: AuditPosition) {
  const query = {
    limit: AUDIT_PAGE_SIZE,
    actor: orUndefined(f.actor),
    action: orUndefined(f.action),
    target: orUndefined(f.target),
    from: orUndefined(f.from),
    to: orUndefined(f.to),
    ...(pos.cursor !== undefined ? { cursor: pos.cursor } : { offset: (pos.page - 1) * AUDIT_PAGE_SIZE }),
  };
  return useQuery({
    queryKey: ['audit', query],
    queryFn: () => apiCall(auditRoutes.list, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditActors() {
  return useQuery({
    queryKey: ['audit', 'actors'],
    queryFn: async () => (await apiCall(auditRoutes.actors)).actors,
    staleTime: 60_000,
  });
}

import { auditRoutes } from '@mailroom/contract/audit';
import { mailRoutes } from '@mailroom/contract/mail';
import { useQueries } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

export const RECENT_ACTIVITY_COUNT = 8;

/** Counters, server status, top usage and the recent mail audit entries, loaded in parallel. */
export function useMailDashboard() {
  return useQueries({
    queries: [
      { queryKey: mailKeys.dashboard(), queryFn: () => apiCall(mailRoutes.dashboard) },
      {
        queryKey: mailKeys.activity(),
        queryFn: () =>
          apiCall(auditRoutes.list, { query: { action: 'mail.', limit: RECENT_ACTIVITY_COUNT } }),
      },
    ],
    combine: ([dashboard, activity]) => ({
      dashboard: dashboard.data,
      activity: activity.data,
      loading: dashboard.isPending || activity.isPending,
      error: dashboard.error ?? activity.error,
      refetch: () => Promise.all([dashboard.refetch(), activity.refetch()]),
    }),
  });
}

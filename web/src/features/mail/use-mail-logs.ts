import { mailRoutes } from '@mailroom/contract/mail';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

export const MAIL_LOG_LINES = 200;

/** The recent Postfix/Dovecot log lines; fetched only while the Logs dialog is open. */
export function useMailLogs(enabled: boolean) {
  return useQuery({
    queryKey: mailKeys.logs(),
    queryFn: () => apiCall(mailRoutes.logs, { query: { lines: MAIL_LOG_LINES } }),
    enabled,
    staleTime: 0,
  });
}

import { mailRoutes } from '@mailroom/contract/mail';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

/** Settings with their version, defaults, last apply time and config check. */
export function useMailSettings(enabled = true) {
  return useQuery({
    enabled,
    queryKey: mailKeys.settings(),
    queryFn: () => apiCall(mailRoutes.getSettings),
  });
}

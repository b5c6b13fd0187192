import { mailRoutes } from '@mailroom/contract/mail';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mailKeys } from './mail-keys.ts';

export function useDkimRecords() {
  return useQuery({ queryKey: mailKeys.dkim(), queryFn: () => apiCall(mailRoutes.dkim) });
}

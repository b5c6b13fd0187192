import { sslRoutes } from '@mailroom/contract/ssl';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Starts renewing every certificate near its end (a job, or a message when there is none). */
export function useRenewExpiring() {
  return useMutation({ mutationFn: () => apiCall(sslRoutes.renewExpiring) });
}

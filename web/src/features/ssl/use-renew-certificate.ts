import { sslRoutes } from '@mailroom/contract/ssl';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { notify } from '../../lib/notifications-store.ts';
import { sslKeys } from './ssl-keys.ts';

/** Renews one certificate (a job), says how it ended, and refreshes the SSL area. */
export function useRenewCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, domain }: { id: number; domain: string }) => {
      const accepted = await apiCall(sslRoutes.renew, { params: { id } });
      notify({
        type: 'info',
        title: 'Renewal started',
        message: `Renewing ${domain} (job ${accepted.jobId})`,
      });
      const job = await followJob(accepted.jobId, () => undefined);
      if (job.state === 'succeeded')
        notify({ type: 'success', title: 'Certificate renewed', message: domain });
      else notify({ type: 'error', title: 'Renewal failed', message: job.message ?? job.state });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: sslKeys.all }),
  });
}

import { sslRoutes } from '@mailroom/contract/ssl';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { notify } from '../../lib/notifications-store.ts';
import { sslKeys } from './ssl-keys.ts';

/**
 * Deletes after asking; a certificate in use asks again and is deleted only when confirmed.
 * Answers whether it was deleted; the SSL area is refreshed when it was.
 */
export function useDeleteCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, domain }: { id: number; domain: string }): Promise<boolean> => {
      if (
        !(await confirmAction({
          title: 'Delete certificate',
          message: `Delete the certificate for ${domain}?`,
          confirmLabel: 'Delete',
          danger: true,
        }))
      )
        return false;
      try {
        await apiCall(sslRoutes.remove, { params: { id }, query: {} });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 409) throw err;
        if (
          !(await confirmAction({
            title: 'Certificate in use',
            message: err.serverMessage ?? err.message,
            confirmLabel: 'Delete anyway',
            danger: true,
          }))
        )
          return false;
        await apiCall(sslRoutes.remove, { params: { id }, query: { confirm: 'true' } });
      }
      notify({ type: 'success', title: 'Certificate deleted', message: domain });
      return true;
    },
    onSuccess: (deleted) => (deleted ? qc.invalidateQueries({ queryKey: sslKeys.all }) : undefined),
  });
}

import { sslRoutes } from '@mailroom/contract/ssl';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** Installs the certificate an outside CA signed for a CSR made here. */
export function useCompleteCsr() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      certificate,
      certificateChain,
    }: {
      id: number;
      certificate: string;
      certificateChain: string;
    }) => apiCall(sslRoutes.completeCsr, { params: { id }, body: { certificate, certificateChain } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sslKeys.all }),
  });
}

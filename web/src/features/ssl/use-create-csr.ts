import { sslRoutes, type GenerateCertificate } from '@mailroom/contract/ssl';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** A certificate signing request (and its key) for an outside CA. */
export function useCreateCsr() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: GenerateCertificate) => apiCall(sslRoutes.createCsr, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sslKeys.csrs() }),
  });
}

import { sslRoutes } from '@mailroom/contract/ssl';
import type { BodyOf } from '@mailroom/contract/route';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** Uploads a certificate and its key (checked by the server: key match, chain, dates, domain). */
export function useUploadCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof sslRoutes.upload>) => apiCall(sslRoutes.upload, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: sslKeys.all }),
  });
}

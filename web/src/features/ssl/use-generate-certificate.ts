import { sslRoutes, type GenerateCertificate } from '@mailroom/contract/ssl';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

/** Starts a generation job (self-signed or ACME); the caller follows the job and refreshes. */
export function useGenerateCertificate() {
  return useMutation({
    mutationFn: (body: GenerateCertificate) => apiCall(sslRoutes.generate, { body }),
  });
}

import { sslFileRoutes } from '@mailroom/contract/ssl';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../api/client.ts';
import { downloadBlob } from '../../lib/csv.ts';

/** A certificate's files (PEM, or a ZIP with the key and chain), saved under its domain's name. */
export function useDownloadCertificate() {
  return useMutation({
    mutationFn: async ({ id, domain, format }: { id: number; domain: string; format: 'pem' | 'zip' }) => {
      const blob = await apiDownload(sslFileRoutes.download, { params: { id }, query: { format } });
      downloadBlob(`${domain.replace(/^\*\./, 'wildcard.')}.${format}`, blob);
    },
  });
}

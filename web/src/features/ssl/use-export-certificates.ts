import { sslFileRoutes } from '@mailroom/contract/ssl';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../api/client.ts';
import { downloadBlob, todayStamp } from '../../lib/csv.ts';

/** Every certificate as a CSV file. */
export function useExportCertificates() {
  return useMutation({
    mutationFn: async () => {
      const blob = await apiDownload(sslFileRoutes.exportCsv, {});
      downloadBlob(`ssl-certificates-${todayStamp()}.csv`, blob);
    },
  });
}

import { bulkRoutes } from '@mailroom/contract/bulk';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../api/client.ts';
import { downloadBlob } from '../../lib/csv.ts';

/** The results CSV of a run (succeeded / failed / not processed / skipped, with reasons). */
export function useDownloadBulkResults() {
  return useMutation({
    mutationFn: async (id: number) => {
      const blob = await apiDownload(bulkRoutes.results, { params: { id } });
      downloadBlob(`bulk-operation-${id}-results.csv`, blob);
    },
  });
}

import { dnsRoutes, type RecordImportResult } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../api/client.ts';
import { useJobAnswer } from '../../api/use-job-upload.ts';
import { invalidateRecords } from './invalidate-dns.ts';

/**
 * Uploads a record CSV (text/csv); answers counts and per-row errors. A dry run changes nothing.
 * A large file runs as a job on the server: `progress` follows it and `cancel` stops it.
 */
export function useImportRecords() {
  const qc = useQueryClient();
  const job = useJobAnswer<RecordImportResult>();
  const mutation = useMutation({
    mutationFn: async (v: { csv: Blob | string; dryRun: boolean }) =>
      job.settle(
        await apiUpload(
          dnsRoutes.importRecords,
          { query: v.dryRun ? { dryRun: '1' } : {} },
          v.csv,
          'text/csv',
        ),
      ),
    onSuccess: (result) => (result.dryRun ? undefined : invalidateRecords(qc)),
  });
  return Object.assign(mutation, { progress: job.progress, cancel: job.cancel });
}

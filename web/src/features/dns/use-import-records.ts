import { dnsRoutes } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../api/client.ts';
import { invalidateRecords } from './invalidate-dns.ts';

/** Uploads a record CSV (text/csv); answers counts and per-row errors. A dry run changes nothing. */
export function useImportRecords() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { csv: Blob | string; dryRun: boolean }) =>
      apiUpload(dnsRoutes.importRecords, { query: v.dryRun ? { dryRun: '1' } : {} }, v.csv, 'text/csv'),
    onSuccess: (result) => (result.dryRun ? undefined : invalidateRecords(qc)),
  });
}

import { dnsRoutes } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateRecords } from './invalidate-dns.ts';

/** Deletes the selected records in one change (all or none; each zone republished once). */
export function useRemoveRecords() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => apiCall(dnsRoutes.removeRecords, { body: { ids } }),
    onSuccess: () => invalidateRecords(qc),
  });
}

import { dnsRoutes } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateZones } from './invalidate-dns.ts';

/** Removes a zone; the server refuses (409) while it has records unless `withRecords` is set. */
export function useRemoveZone() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { domain: string; withRecords: boolean }) =>
      apiCall(dnsRoutes.removeZone, {
        params: { domain: v.domain },
        body: v.withRecords ? { confirm: true } : {},
      }),
    onSuccess: () => invalidateZones(qc),
  });
}

import { dnsRoutes, type ZoneUpdateRequest } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateZones } from './invalidate-dns.ts';

/** Edits the SOA fields of a zone. */
export function useUpdateZone() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { domain: string; body: ZoneUpdateRequest }) =>
      apiCall(dnsRoutes.updateZone, { params: { domain: v.domain }, body: v.body }),
    onSuccess: () => invalidateZones(qc),
  });
}

import { dnsRoutes, type ZoneCreateRequest } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateZones } from './invalidate-dns.ts';

export function useCreateZone() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ZoneCreateRequest) => apiCall(dnsRoutes.addZone, { body }),
    onSuccess: () => invalidateZones(qc),
  });
}

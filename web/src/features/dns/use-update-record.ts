import { dnsRoutes, type DnsRecord, type RecordInput } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateRecords } from './invalidate-dns.ts';
import { recordPath } from './record-path.ts';

/** Replaces one record (`PUT dns/zones/:zone/records/:qname/:rtype?id=`). */
export function useUpdateRecord() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { record: DnsRecord; body: RecordInput }) =>
      apiCall(dnsRoutes.updateZoneRecord, { ...recordPath(v.record), body: v.body }),
    onSuccess: () => invalidateRecords(qc),
  });
}

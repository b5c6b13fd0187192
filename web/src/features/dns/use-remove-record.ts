import { dnsRoutes, type DnsRecord } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateRecords } from './invalidate-dns.ts';
import { recordPath } from './record-path.ts';

/** Deletes one record (`DELETE dns/zones/:zone/records/:qname/:rtype?id=`). */
export function useRemoveRecord() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (record: DnsRecord) => apiCall(dnsRoutes.deleteZoneRecord, recordPath(record)),
    onSuccess: () => invalidateRecords(qc),
  });
}

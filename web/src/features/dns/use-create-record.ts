import { dnsRoutes, type RecordAddRequest } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateRecords } from './invalidate-dns.ts';

/** `POST dns/records/add`, the spec's form body. */
export function useCreateRecord() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordAddRequest) => apiCall(dnsRoutes.addRecord, { body }),
    onSuccess: () => invalidateRecords(qc),
  });
}

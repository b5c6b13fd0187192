import { dnsRoutes, type DnsSettingsSaveRequest } from '@mailroom/contract/dns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { dnsKeys } from './dns-keys.ts';
import { invalidateAfterSettingsSave } from './invalidate-dns.ts';

/** Saves the settings; a stale version answers 409 and nothing is written. */
export function useSaveDnsSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DnsSettingsSaveRequest) => apiCall(dnsRoutes.saveSettings, { body }),
    onSuccess: async (saved) => {
      qc.setQueryData(dnsKeys.settings(), saved);
      await invalidateAfterSettingsSave(qc);
    },
  });
}

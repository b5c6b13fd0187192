import { type SslSettings, sslRoutes } from '@mailroom/contract/ssl';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** Saves the SSL settings (with the version they were read at); the answer becomes the cached settings. */
export function useSaveSslSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { settings: SslSettings; version: number }) =>
      apiCall(sslRoutes.saveSettings, { body }),
    onSuccess: (r) => qc.setQueryData(sslKeys.settings(), r),
  });
}

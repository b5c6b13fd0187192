import { sslRoutes } from '@mailroom/contract/ssl';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** The SSL area's certificates, for the virtual host form's picker (it keeps the ones that fit). */
export function useWebCertificates(enabled: boolean) {
  return useQuery({
    queryKey: webKeys.certificates(),
    queryFn: () => apiCall(sslRoutes.list, { query: { limit: 1000 } }),
    enabled,
  });
}

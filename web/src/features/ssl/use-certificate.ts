import { sslRoutes } from '@mailroom/contract/ssl';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

export function useCertificate(id: number | null) {
  return useQuery({
    queryKey: sslKeys.detail(id ?? 0),
    queryFn: () => apiCall(sslRoutes.get, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

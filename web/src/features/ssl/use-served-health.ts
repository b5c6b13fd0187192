import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** The last SSL health check of every served HTTPS host name (Apache's handshakes, issue 19). */
export function useServedHealth() {
  return useQuery({
    queryKey: sslKeys.servedHealth(),
    queryFn: () => apiCall(webRoutes.sslHealth),
    refetchInterval: 30_000,
  });
}

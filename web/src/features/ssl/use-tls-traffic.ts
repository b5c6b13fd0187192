import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { sslKeys } from './ssl-keys.ts';

/** HTTPS requests, handshakes and resumed sessions per protocol and cipher (SSL metrics, issue 19). */
export function useTlsTraffic() {
  return useQuery({
    queryKey: sslKeys.tlsTraffic(),
    queryFn: () => apiCall(webRoutes.sslMetrics),
    refetchInterval: 30_000,
  });
}

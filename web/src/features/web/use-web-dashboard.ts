import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** Counters, traffic figures, the real state of Apache/PHP-FPM/the database and Recent Activity. */
export function useWebDashboard() {
  return useQuery({ queryKey: webKeys.dashboard(), queryFn: () => apiCall(webRoutes.dashboard) });
}

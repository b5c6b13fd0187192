import { webRoutes } from '@mailroom/contract/web';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { webKeys } from './web-keys.ts';

/** One application with its environment values (the list answers only their names): for Edit. */
export function useApp(name: string | null, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: webKeys.app(name ?? ''),
    queryFn: () => apiCall(webRoutes.app, { params: { name: name ?? '' } }),
    enabled: name !== null,
    // The form is filled once from a fresh answer, never from an older cached one.
    gcTime: 0,
    staleTime: 0,
    refetchInterval,
  });
}

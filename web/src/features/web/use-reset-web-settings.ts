import { webRoutes } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateWebSettings } from './invalidate-web.ts';
import { webKeys } from './web-keys.ts';

/** Resets every setting to the spec's defaults on the server, and applies them. */
export function useResetWebSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(webRoutes.resetSettings),
    onSuccess: async (saved) => {
      qc.setQueryData(webKeys.settings(), saved.settings);
      await invalidateWebSettings(qc);
    },
  });
}

import { webRoutes, type WebServerSettingsInput } from '@mailroom/contract/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateWebSettings } from './invalidate-web.ts';
import { webKeys } from './web-keys.ts';

/** Saves the settings; the server renders, checks with Apache, reloads and probes before answering. */
export function useSaveWebSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WebServerSettingsInput) => apiCall(webRoutes.saveSettings, { body }),
    onSuccess: async (saved) => {
      qc.setQueryData(webKeys.settings(), saved.settings);
      await invalidateWebSettings(qc);
    },
  });
}

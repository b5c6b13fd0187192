import { mailRoutes, type SaveMailSettingsRequest } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { invalidateSettings } from './invalidate-mail.ts';
import { mailKeys } from './mail-keys.ts';

/** Saves with the version the form was loaded at; a stale version answers 409. */
export function useSaveMailSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveMailSettingsRequest) => apiCall(mailRoutes.saveSettings, { body }),
    onSuccess: async (saved) => {
      qc.setQueryData(mailKeys.settings(), saved);
      await invalidateSettings(qc);
    },
  });
}

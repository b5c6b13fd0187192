import { type ImportMailboxesResponse, mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../api/client.ts';
import { useJobAnswer } from '../../api/use-job-upload.ts';
import { invalidateMailboxes } from './invalidate-mail.ts';

/**
 * Uploads a mailbox CSV (email,password[,quota]) and answers the per-row result; a file of more
 * than a few dozen rows runs as a job (every password is hashed).
 */
export function useImportMailboxes() {
  const qc = useQueryClient();
  const job = useJobAnswer<ImportMailboxesResponse>();
  const mutation = useMutation({
    mutationFn: async (v: { csv: Blob | string; dryRun: boolean; createDomains: boolean }) =>
      job.settle(
        await apiUpload(
          mailRoutes.importMailboxes,
          {
            query: {
              ...(v.dryRun ? { dryRun: '1' } : {}),
              ...(v.createDomains ? { createDomains: '1' } : {}),
            },
          },
          v.csv,
          'text/csv',
        ),
      ),
    onSuccess: (result) => {
      if (!result.dryRun) void invalidateMailboxes(qc);
    },
  });
  return Object.assign(mutation, { progress: job.progress, cancel: job.cancel });
}

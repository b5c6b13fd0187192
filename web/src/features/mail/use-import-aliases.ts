import { type ImportAliasesResponse, mailRoutes } from '@mailroom/contract/mail';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiUpload } from '../../api/client.ts';
import { useJobAnswer } from '../../api/use-job-upload.ts';
import { invalidateAliases } from './invalidate-mail.ts';

/** §4: after an import the list reloads after 1 second. */
export const IMPORT_RELOAD_DELAY_MS = 1000;

/**
 * Uploads an alias CSV (text/csv) and answers the per-row result. A large file runs as a job on
 * the server: `progress` follows it (over /api/events) and `cancel` stops it.
 */
export function useImportAliases() {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const job = useJobAnswer<ImportAliasesResponse>();
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const mutation = useMutation({
    mutationFn: async (v: { csv: Blob | string; dryRun: boolean; createDomains?: boolean }) =>
      job.settle(
        await apiUpload(
          mailRoutes.importAliases,
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
      if (result.dryRun) return;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void invalidateAliases(qc), IMPORT_RELOAD_DELAY_MS);
    },
  });
  return Object.assign(mutation, { progress: job.progress, cancel: job.cancel });
}

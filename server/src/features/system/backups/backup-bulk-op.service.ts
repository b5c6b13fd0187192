import { makeFolder } from '../../../host/data-files.ts';
import { fieldError } from '../../../http/errors.ts';
import type { BulkOperationHandler } from '../../../lib/bulk-operation.ts';
import { type BackupEnv, backupJob } from './backup.service.ts';
import { backupOutcome, completedBackupDescribed, insertBackupRow } from './backup.repository.ts';

/**
 * Backup Services as a bulk operation (issue 21): one item, a full backup made by the same job
 * work as Create Backup (database copy, data folder, daemon configuration; one backup at a time
 * across every process). After a crash the item is checked against the backups table: a backup
 * this item finished before the crash is not made twice.
 */
export function backupBulkOperation(env: BackupEnv): BulkOperationHandler {
  return {
    id: 'system.backup',
    async plan(input) {
      if (input.target.kind !== 'all')
        throw fieldError('target', 'Backup Services backs up everything: choose all.');
      return [{ key: 'full', label: 'Full backup', action: 'run', payload: {} }];
    },
    async runBatch(entries, tools) {
      await tools.each(entries, async (e) => {
        const mark = `Bulk operation item ${e.id}`;
        const done = await completedBackupDescribed(env.database.db, mark);
        if (done) return { skipped: `done: ${done.name} was made before the restart` };
        await makeFolder(env.backupDir, 0o700);
        const backupId = await insertBackupRow(env.database.db, 'full', mark, 'manual');
        const noop = {
          jobId: 0,
          signal: tools.signal,
          progress: () => undefined,
          checkpoint: async () => undefined,
        };
        await backupJob(env)({ backupId }, noop);
        const row = await backupOutcome(env.database.db, backupId);
        if (!row) throw new Error(`Backup ${backupId} was deleted while it was written`);
        if (row.status !== 'completed') throw new Error(`The backup ended ${row.status}`);
        return { after: { backupId, name: row.name, size: Number(row.size) } };
      });
    },
  };
}

import type { BulkOperationId } from '@mailroom/contract/bulk';
import type { AppDeps } from '../../app-deps.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { SecretVault, VAULT_FILES } from '../../security/secret-vault.ts';
import { BULK_JOB_KIND, type BulkCtx } from './bulk-context.types.ts';
import { runJob } from './bulk-run.service.ts';

/**
 * Wiring of the bulk operations: the areas' handlers, and the resumable job kind every process
 * registers (a run stopped by a crash or a stop is queued again and resumed by whichever process
 * claims it). Call before the job runner starts, so its first sweep already knows the kind.
 */
export function createBulk(deps: AppDeps): BulkCtx & { add(handlers: BulkOperationHandler[]): void } {
  const jobs = deps.jobs!;
  const handlers = new Map<BulkOperationId, BulkOperationHandler>();
  const b: BulkCtx & { add(h: BulkOperationHandler[]): void } = {
    db: deps.database.db,
    jobs,
    handlers,
    vault: SecretVault.open(deps.config.dataDir, VAULT_FILES.bulk),
    add(list) {
      for (const h of list) handlers.set(h.id, h);
    },
  };
  jobs.register(BULK_JOB_KIND, (input, ctx) => runJob(b, input, ctx));
  return b;
}

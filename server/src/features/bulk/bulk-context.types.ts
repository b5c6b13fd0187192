import type { BulkOperationId } from '@mailroom/contract/bulk';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { Database } from '../../db/schema.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import type { SecretVault } from '../../security/secret-vault.ts';

/** The job runner's shapes as this area uses them (through AppDeps: features do not import each other). */
export type Jobs = NonNullable<AppDeps['jobs']>;
export type JobHandler = Parameters<Jobs['register']>[1];
export type JobContext = Parameters<JobHandler>[1];
export type JobOutcome = Awaited<ReturnType<JobHandler>>;

/** The job kind of a bulk run (queued, resumable). */
export const BULK_JOB_KIND = 'bulk.run';

/** What the bulk services work with. */
export interface BulkCtx {
  db: Kysely<Database>;
  jobs: Jobs;
  /** Each area's operations (wired in app.ts). */
  handlers: Map<BulkOperationId, BulkOperationHandler>;
  /** Seals the secrets of planned items (a mailbox password) until each item is done. */
  vault: SecretVault;
  /** Test hook: runs after each committed batch (e.g. to stop the process mid-run). */
  afterBatch?: (runId: number, batch: number) => Promise<void> | void;
}

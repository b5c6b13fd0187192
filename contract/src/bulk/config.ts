import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { strictNumber } from '../validators.ts';
import {
  BATCH_SIZE_MAX,
  BATCH_SIZE_MIN,
  BULK_CATEGORIES,
  BULK_DEFAULT_BATCH_SIZE,
  BULK_OPERATION_IDS,
  type BulkOperationInfo,
  bulkLabels,
} from './operations.ts';

// ---------- configuration and preferences ----------

export const TARGET_ITEMS = ['all', 'selected', 'filtered', 'csv'] as const;

/** Spec §3.5 Operation config (targetItems, batchSize, continueOnError); §5 batch size 1 to 100. */
export const BulkConfig = z.object({
  targetItems: z.enum(TARGET_ITEMS, { error: fieldMessages.required(bulkLabels.targetItems) }),
  batchSize: strictNumber(
    z
      .number({ error: fieldMessages.required(bulkLabels.batchSize) })
      .int(`${bulkLabels.batchSize} must be a whole number`)
      .min(BATCH_SIZE_MIN, fieldMessages.min(bulkLabels.batchSize, BATCH_SIZE_MIN))
      .max(BATCH_SIZE_MAX, fieldMessages.max(bulkLabels.batchSize, BATCH_SIZE_MAX)),
  ),
  continueOnError: z.boolean(),
});
export type BulkConfig = z.infer<typeof BulkConfig>;

export const defaultBulkConfig = (op: BulkOperationInfo): BulkConfig => ({
  targetItems: op.targets[0] as BulkConfig['targetItems'],
  batchSize: BULK_DEFAULT_BATCH_SIZE,
  continueOnError: false,
});

export const BulkOperation = z.object({
  id: z.enum(BULK_OPERATION_IDS),
  name: z.string(),
  description: z.string(),
  category: z.enum(BULK_CATEGORIES),
  icon: z.string(),
  destructive: z.boolean(),
  targets: z.array(z.enum(TARGET_ITEMS)),
  csvColumns: z.string().nullable(),
  /** Null: it can run; otherwise why not (its card is disabled). */
  unavailable: z.string().nullable(),
  /** This administrator's choices (persisted). */
  enabled: z.boolean(),
  config: BulkConfig,
});
export type BulkOperation = z.infer<typeof BulkOperation>;

export const BulkOperationsAnswer = z.object({ operations: z.array(BulkOperation) });
export type BulkOperationsAnswer = z.infer<typeof BulkOperationsAnswer>;

export const OperationParams = z.object({ id: z.enum(BULK_OPERATION_IDS) });

export const SavePreferenceRequest = z.object({
  enabled: z.boolean().optional(),
  config: BulkConfig.optional(),
});
export type SavePreferenceRequest = z.infer<typeof SavePreferenceRequest>;

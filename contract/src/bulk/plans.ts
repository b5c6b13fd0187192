import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { queryInt, strictNumber } from '../validators.ts';
import { BULK_CSV_MAX, BULK_MAX_ITEMS, BULK_OPERATION_IDS, bulkLabels, bulkMessages } from './operations.ts';
import { BulkConfig, TARGET_ITEMS } from './config.ts';

// ---------- targets and plans ----------

/** The list filters a "filtered" target carries (the list screen's current filter). */
export const BulkFilter = z.object({
  q: z.string().max(500).optional(),
  domain: z.string().max(253).optional(),
  status: z.string().max(40).optional(),
  zone: z.string().max(253).optional(),
  type: z.string().max(10).optional(),
});
export type BulkFilter = z.infer<typeof BulkFilter>;

export const BulkTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({
    kind: z.literal('selected'),
    keys: z
      .array(z.string().min(1).max(500))
      .min(1, bulkMessages.keysRequired)
      .max(BULK_MAX_ITEMS, `At most ${BULK_MAX_ITEMS} items`),
  }),
  z.object({ kind: z.literal('filtered'), filter: BulkFilter }),
  z.object({
    kind: z.literal('csv'),
    csv: z
      .string()
      .min(1, bulkMessages.csvRequired)
      .max(BULK_CSV_MAX, `The CSV must be at most ${BULK_CSV_MAX} characters`),
  }),
]);
export type BulkTarget = z.infer<typeof BulkTarget>;

export const BulkOptions = z.object({
  /** dns.record.update on selected/filtered/all: the TTL to set. */
  ttl: strictNumber(
    z
      .number()
      .int(`${bulkLabels.ttl} must be a whole number`)
      .min(1, fieldMessages.min(bulkLabels.ttl, 1))
      .max(2147483647, fieldMessages.max(bulkLabels.ttl, 2147483647)),
  ).optional(),
});
export type BulkOptions = z.infer<typeof BulkOptions>;

export const PlanRequest = z.object({
  operation: z.enum(BULK_OPERATION_IDS),
  target: BulkTarget,
  config: BulkConfig,
  options: BulkOptions.optional(),
});
export type PlanRequest = z.input<typeof PlanRequest>;

export const PLAN_ACTIONS = ['create', 'update', 'delete', 'run', 'skip', 'invalid'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];
export const ITEM_STATES = ['pending', 'succeeded', 'failed', 'not_processed', 'skipped'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export const RUN_STATES = ['planned', 'running', 'completed', 'failed', 'cancelled', 'discarded'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const PlanCounts = z.object({
  create: z.number(),
  update: z.number(),
  delete: z.number(),
  run: z.number(),
  skip: z.number(),
  invalid: z.number(),
});
export type PlanCounts = z.infer<typeof PlanCounts>;

export const BulkItem = z.object({
  seq: z.number(),
  key: z.string(),
  label: z.string(),
  action: z.enum(PLAN_ACTIONS),
  reason: z.string().nullable(),
  state: z.enum(ITEM_STATES),
  attempt: z.number(),
  batch: z.number().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  doneAt: z.string().nullable(),
});
export type BulkItem = z.infer<typeof BulkItem>;

export const RunCounts = z.object({
  total: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  notProcessed: z.number(),
  pending: z.number(),
  skipped: z.number(),
});
export type RunCounts = z.infer<typeof RunCounts>;

/** One run: spec §3.5 progress and result, with the plan and the ledger's counts. */
export const BulkRun = z.object({
  id: z.number(),
  operation: z.enum(BULK_OPERATION_IDS),
  name: z.string(),
  state: z.enum(RUN_STATES),
  actor: z.string(),
  config: BulkConfig,
  target: z.object({ kind: z.enum(TARGET_ITEMS), description: z.string() }),
  options: BulkOptions.nullable(),
  plan: PlanCounts,
  counts: RunCounts,
  /** Terminal items / total, 0 to 100. */
  progress: z.number(),
  /** Items per second measured so far (null until known). */
  throughput: z.number().nullable(),
  /** Milliseconds left at the measured throughput (null: "—"). */
  estimatedTimeRemaining: z.number().nullable(),
  /** The item being worked on now (spec §3.5 currentItemName). */
  currentItemName: z.string().nullable(),
  jobId: z.number().nullable(),
  retryOf: z.number().nullable(),
  batches: z.number(),
  cause: z.string().nullable(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Milliseconds from start to finish (spec §3.5 duration). */
  duration: z.number().nullable(),
});
export type BulkRun = z.infer<typeof BulkRun>;

export const PlanAnswer = z.object({
  run: BulkRun,
  /** The first items of the plan (the rest through the items call). */
  items: z.array(BulkItem),
});
export type PlanAnswer = z.infer<typeof PlanAnswer>;

export const RunsAnswer = z.object({
  active: z.array(BulkRun),
  history: z.array(BulkRun),
});
export type RunsAnswer = z.infer<typeof RunsAnswer>;

export const RunParams = z.object({ id: queryInt(1, 2 ** 31 - 1, 'Run id') });

export const ItemsQuery = z.object({
  state: z.enum(ITEM_STATES).optional(),
  action: z.enum(PLAN_ACTIONS).optional(),
  limit: queryInt(1, 1000, 'limit').optional(),
  offset: queryInt(0, undefined, 'offset').optional(),
});
export type ItemsQuery = z.input<typeof ItemsQuery>;

export const ItemsAnswer = z.object({ items: z.array(BulkItem), total: z.number() });
export type ItemsAnswer = z.infer<typeof ItemsAnswer>;

export const StartRequest = z.object({
  /** Destructive operations: the number of items the run deletes, typed by the administrator. */
  confirm: z.number().int().optional(),
});
export type StartRequest = z.infer<typeof StartRequest>;

export const ClearHistoryAnswer = z.object({ cleared: z.number() });

/** Columns of the results download. */
export const BULK_RESULT_COLUMNS = ['seq', 'item', 'action', 'result', 'errorCode', 'message'] as const;

/** Result words of the download and the Details table. */
export const itemResultLabel = (state: ItemState): string =>
  ({
    pending: 'pending',
    succeeded: 'succeeded',
    failed: 'failed',
    not_processed: 'not processed',
    skipped: 'skipped',
  })[state];

import { z } from 'zod';
import { JobAccepted } from './jobs.ts';
import { fieldMessages } from './messages.ts';
import { defineRoute } from './route.ts';
import { queryInt, strictNumber } from './validators.ts';

// Spec §2.12, §3.5, §4 (bulk operation states), §5 (batch size 1 to 100), §9 (history cap 20,
// active entry removed 3 s after completion and 2 s after cancel). Issue 21: built on the job
// runner, a frozen plan and a durable ledger per item.

export const BULK_CATEGORIES = ['mail', 'dns', 'ssl', 'web', 'system'] as const;
export type BulkCategory = (typeof BULK_CATEGORIES)[number];

/** The Bulk Actions buttons (spec §2.12): one per category that has operations here. */
export const BULK_ACTION_CATEGORIES = [
  { category: 'mail', label: 'Mail' },
  { category: 'dns', label: 'DNS' },
  { category: 'ssl', label: 'SSL' },
  { category: 'system', label: 'System' },
] as const;

export const BULK_OPERATION_IDS = [
  'mail.mailbox.create',
  'mail.mailbox.delete',
  'mail.alias.create',
  'mail.alias.delete',
  'dns.record.create',
  'dns.record.update',
  'ssl.certificate.renew',
  'web.app.deploy',
  'system.backup',
] as const;
export type BulkOperationId = (typeof BULK_OPERATION_IDS)[number];

export type TargetKind = 'all' | 'selected' | 'filtered' | 'csv';

export interface BulkOperationInfo {
  id: BulkOperationId;
  name: string;
  description: string;
  category: BulkCategory;
  icon: string;
  /** Deletes: the plan's count must be typed to start the run. */
  destructive: boolean;
  /** The targets this operation takes. */
  targets: readonly TargetKind[];
  /** CSV columns, for operations that take a CSV. */
  csvColumns?: string;
}

/** Spec §3.5: the known operations (id, name, description, category, icon). */
export const BULK_OPERATIONS: readonly BulkOperationInfo[] = [
  {
    id: 'mail.mailbox.create',
    name: 'Create Mailboxes',
    description: 'Create mailboxes from a CSV file (email, password, quota in MB)',
    category: 'mail',
    icon: 'mailbox',
    destructive: false,
    targets: ['csv'],
    csvColumns: 'email,password,quota',
  },
  {
    id: 'mail.mailbox.delete',
    name: 'Delete Mailboxes',
    description: 'Delete mailboxes; their mail folders are moved aside',
    category: 'mail',
    icon: 'trash',
    destructive: true,
    targets: ['selected', 'filtered', 'all'],
  },
  {
    id: 'mail.alias.create',
    name: 'Create Aliases',
    description: 'Create aliases from a CSV file (source, destination)',
    category: 'mail',
    icon: 'forward',
    destructive: false,
    targets: ['csv'],
    csvColumns: 'source,destination',
  },
  {
    // Not in the spec's list: the alias list's "run a bulk operation on the selection" (issue 21)
    // needs an operation that acts on existing aliases.
    id: 'mail.alias.delete',
    name: 'Delete Aliases',
    description: "Delete aliases; Mailroom's required postmaster and abuse aliases are kept",
    category: 'mail',
    icon: 'trash',
    destructive: true,
    targets: ['selected', 'filtered', 'all'],
  },
  {
    id: 'dns.record.create',
    name: 'Create DNS Records',
    description: 'Create DNS records from a CSV file (zone, name, type, value, ttl, priority)',
    category: 'dns',
    icon: 'dns',
    destructive: false,
    targets: ['csv'],
    csvColumns: 'zone,name,type,value,ttl,priority',
  },
  {
    id: 'dns.record.update',
    name: 'Update DNS Records',
    description:
      'Set the TTL of the chosen records, or update records from a CSV file (id, value, ttl, priority)',
    category: 'dns',
    icon: 'edit',
    destructive: false,
    targets: ['selected', 'filtered', 'all', 'csv'],
    csvColumns: 'id,value,ttl,priority',
  },
  {
    id: 'ssl.certificate.renew',
    name: 'Renew SSL Certificates',
    description: 'Renew certificates Mailroom can renew (self-signed and ACME)',
    category: 'ssl',
    icon: 'certificate',
    destructive: false,
    targets: ['selected', 'filtered', 'all'],
  },
  {
    id: 'web.app.deploy',
    name: 'Deploy Web Applications',
    description: 'Deploy web applications from their repositories',
    category: 'web',
    icon: 'rocket',
    destructive: false,
    targets: ['selected', 'filtered', 'all'],
  },
  {
    id: 'system.backup',
    name: 'Backup Services',
    description: 'Make a full backup of the database, data folder and daemon configuration',
    category: 'system',
    icon: 'backup',
    destructive: false,
    targets: ['all'],
  },
];

/** Why an operation cannot run yet (its area is not built); shown on its card. */
export const BULK_UNAVAILABLE: Partial<Record<BulkOperationId, string>> = {
  'web.app.deploy':
    'Not available yet: web application management is not built, so there is nothing to deploy.',
};

export const bulkLabels = {
  targetItems: 'Target Items',
  batchSize: 'Batch Size',
  continueOnError: 'Continue on error',
  ttl: 'TTL',
} as const;

export const BATCH_SIZE_MIN = 1;
export const BATCH_SIZE_MAX = 100;
export const BULK_DEFAULT_BATCH_SIZE = 10;
/** Spec §9. */
export const BULK_HISTORY_CAP = 20;
export const BULK_REMOVE_AFTER_COMPLETE_MS = 3000;
export const BULK_REMOVE_AFTER_CANCEL_MS = 2000;
/** With Continue on error: a run stops once this share of a batch's items (and at least 5) failed in a row. */
export const BULK_FAILURE_BUDGET = 10;
/** Largest CSV a plan takes (characters). */
export const BULK_CSV_MAX = 900_000;
/** Most items one plan holds. */
export const BULK_MAX_ITEMS = 100_000;

export const bulkMessages = {
  empty: 'No operation history available',
  noItems: 'The target holds no items to act on.',
  confirmMismatch: (n: number) => `Type ${n} to confirm: the number of items this run deletes.`,
  notPlanned: 'This plan was already started or discarded; make a new plan.',
  unavailable: (name: string) => `${name} is not available.`,
  targetNotTaken: (target: string, name: string) => `${name} does not take the target "${target}".`,
  csvRequired: 'Choose a CSV file.',
  keysRequired: 'Select at least one item in its list first.',
  noFailed: 'This run has no failed items to retry.',
  stillRunning: 'This operation is still running; cancel it first.',
} as const;

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

export const bulkRoutes = {
  operations: defineRoute({
    method: 'GET',
    path: 'bulk/operations',
    summary: 'The bulk operations with this administrator’s enable and configuration choices',
    tags: ['bulk'],
    response: BulkOperationsAnswer,
  }),
  savePreference: defineRoute({
    method: 'PUT',
    path: 'bulk/operations/:id',
    summary: 'Enable or configure an operation (saved per administrator)',
    tags: ['bulk'],
    params: OperationParams,
    body: SavePreferenceRequest,
    response: BulkOperation,
    audit: 'bulk.preference.update',
  }),
  plan: defineRoute({
    method: 'POST',
    path: 'bulk/plans',
    summary: 'Dry run: freezes the target into an item list and classifies each item; changes nothing else',
    tags: ['bulk'],
    body: PlanRequest,
    response: PlanAnswer,
    audit: 'bulk.plan',
  }),
  runs: defineRoute({
    method: 'GET',
    path: 'bulk/runs',
    summary: 'Active operations and the operation history (last 20)',
    tags: ['bulk'],
    response: RunsAnswer,
  }),
  run: defineRoute({
    method: 'GET',
    path: 'bulk/runs/:id',
    summary: 'One run: plan, ledger counts, progress and ETA',
    tags: ['bulk'],
    params: RunParams,
    response: BulkRun,
  }),
  items: defineRoute({
    method: 'GET',
    path: 'bulk/runs/:id/items',
    summary: 'A run’s items with their per-item results',
    tags: ['bulk'],
    params: RunParams,
    query: ItemsQuery,
    response: ItemsAnswer,
  }),
  results: defineRoute({
    method: 'GET',
    path: 'bulk/runs/:id/results',
    summary: `A run’s results as CSV (${BULK_RESULT_COLUMNS.join(', ')}); formula cells neutralised`,
    tags: ['bulk'],
    params: RunParams,
    response: z.string().describe('CSV text with a header row'),
  }),
  start: defineRoute({
    method: 'POST',
    path: 'bulk/runs/:id/start',
    summary: 'Starts a planned run as a resumable job',
    tags: ['bulk'],
    params: RunParams,
    body: StartRequest,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'bulk.run.start',
  }),
  cancel: defineRoute({
    method: 'POST',
    path: 'bulk/runs/:id/cancel',
    summary: 'Cancels a run: the item in flight finishes, the rest are not processed',
    tags: ['bulk'],
    params: RunParams,
    response: BulkRun,
    audit: 'bulk.run.cancel',
  }),
  discard: defineRoute({
    method: 'POST',
    path: 'bulk/runs/:id/discard',
    summary: 'Discards a plan that was not started',
    tags: ['bulk'],
    params: RunParams,
    response: BulkRun,
    audit: 'bulk.plan.discard',
  }),
  retry: defineRoute({
    method: 'POST',
    path: 'bulk/runs/:id/retry',
    summary: 'Plans a new run of the failed items of a finished run',
    tags: ['bulk'],
    params: RunParams,
    response: PlanAnswer,
    audit: 'bulk.run.retry',
  }),
  clearHistory: defineRoute({
    method: 'POST',
    path: 'bulk/history/clear',
    summary: 'Clears the operation history (the audit log keeps every run)',
    tags: ['bulk'],
    response: ClearHistoryAnswer,
    audit: 'bulk.history.clear',
  }),
};

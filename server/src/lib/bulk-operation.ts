import type { BulkOperationId, BulkOptions, BulkTarget, PlanAction } from '@mailroom/contract/bulk';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What an area gives the bulk operations (issue 21), so the bulk feature runs its plans and
 * batches without importing the area: app.ts wires each area's handler in. The area plans with its
 * own rules (the same checks as its single create or delete) and runs a batch as one transaction
 * (and, where it has daemon files, one apply), calling `tools.items` to run each item under a
 * savepoint with its ledger row and audit line written in that same transaction.
 */

type Db = Kysely<Database>;

export interface PlanInput {
  target: BulkTarget;
  options: BulkOptions;
  actor: string;
}

/** One item of a plan, frozen when the plan is made. */
export interface PlannedItem {
  /** The item's identity in its area (an address, a record id…). */
  key: string;
  label: string;
  action: PlanAction;
  /** Why it is skipped or invalid. */
  reason?: string | null;
  /** What the run needs to act on it (JSON; the handler's `secretFields` are sealed at rest). */
  payload?: Record<string, unknown> | null;
  /** Updates: the values before. */
  before?: unknown;
}

/** An item as a batch sees it (its payload with the secrets opened). */
export interface LedgerEntry {
  id: number;
  seq: number;
  key: string;
  label: string;
  action: PlanAction;
  payload: Record<string, unknown>;
  /**
   * Started on its own (`each`) before the process stopped, and not recorded as ended: the work
   * may or may not have happened; check the real state before doing it again.
   */
  inFlight: boolean;
}

/** What one item did: `skipped` (found done already, e.g. it exists now) or its before/after. */
export interface ItemResult {
  before?: unknown;
  after?: unknown;
  skipped?: string;
}

export type ItemStep = (entry: LedgerEntry, trx: Db) => Promise<ItemResult>;

/**
 * How `setItems` treats one entry, decided in memory from what the batch read once:
 * `row` joins the batch's set-based write (with the result it records once written), `result`
 * settles it at once (e.g. skipped: it exists), `error` fails it, `single` runs its `step` alone
 * under a savepoint (the rare case that needs more reads, e.g. a loop check).
 */
export type Prepared<R> =
  { row: R; result: ItemResult } | { result: ItemResult } | { error: unknown } | 'single';

export interface SetPlan<R> {
  prepare(entry: LedgerEntry): Prepared<R>;
  /** Writes the rows of consecutive prepared entries in one statement (or a few), inside `trx`. */
  write(trx: Db, rows: R[]): Promise<void>;
  /** One entry on its own: `single` entries, and each entry of a set write that failed. */
  step: ItemStep;
}

export interface BatchTools {
  /**
   * Runs `step` for each entry inside `trx`, each under its own savepoint: a failed item is rolled
   * back alone and recorded as failed; a done one is recorded with its audit line. Stops early
   * (the rest stay pending) when the run is cancelled or, without Continue on error, at the first
   * failure. Safe to run twice (the apply pipeline's dry run, then the commit): it writes only
   * through `trx`.
   */
  items(trx: Db, entries: LedgerEntry[], step: ItemStep): Promise<{ done: number; failed: number }>;
  /**
   * The set-based form of `items`, same outcome: entries are classified in memory (`prepare`),
   * consecutive writable ones are written together (`write`, under one savepoint), and only when
   * that write fails are they run again one by one (`step`, a savepoint each), so one bad item
   * still fails alone. Ledger rows and audit lines are written in bulk, in `trx`, in plan order.
   */
  setItems<R>(trx: Db, entries: LedgerEntry[], plan: SetPlan<R>): Promise<{ done: number; failed: number }>;
  /**
   * For work that cannot share one transaction (an ACME order, a backup archive): runs `work` for
   * each entry on its own (the area's service commits it), then writes its ledger row and audit
   * line. Stops early like `items`.
   */
  each(
    entries: LedgerEntry[],
    work: (entry: LedgerEntry) => Promise<ItemResult>,
  ): Promise<{ done: number; failed: number }>;
  /** Aborted when the run is cancelled or the server stops. */
  readonly signal: AbortSignal;
  /** The administrator who started the run. */
  readonly actor: string;
  readonly options: BulkOptions;
  /** When the run started (ms): what changed since may be this run's own work. */
  readonly startedAt: number;
}

export interface BulkOperationHandler {
  id: BulkOperationId;
  /** Freezes the target into items and classifies each; changes nothing. */
  plan(input: PlanInput): Promise<PlannedItem[]>;
  /** Runs one batch: one transaction (and one apply) for `entries`. */
  runBatch(entries: LedgerEntry[], tools: BatchTools): Promise<void>;
  /** Payload fields sealed in the ledger (a mailbox password). */
  secretFields?: readonly string[];
}

/** Error code and message of a failed item (the API's error codes where the area threw one). */
export function errorOf(err: unknown): { code: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : 'ERROR';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { code, message: message.slice(0, 2000) };
}

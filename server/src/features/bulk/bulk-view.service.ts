import {
  BULK_OPERATIONS,
  BULK_UNAVAILABLE,
  type BulkOperation,
  type BulkOperationId,
  type BulkRun,
  type ItemState,
  type ItemsAnswer,
  type PlanAction,
  type RunState,
  type RunsAnswer,
  type SavePreferenceRequest,
  defaultBulkConfig,
} from '@mailroom/contract/bulk';
import { notFound } from '../../http/errors.ts';
import type { BulkCtx } from './bulk-context.types.ts';
import {
  type RunRow,
  activeRuns,
  clearHistory,
  configOf,
  historyRuns,
  optionsOf,
  planCountsOf,
  readRun,
  targetOf,
} from './bulk.repository.ts';
import { doneSpan, listItems, runCounts } from './bulk-item.repository.ts';
import { readPreferences, savePreference } from './bulk-preference.repository.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function operationInfo(id: BulkOperationId) {
  return BULK_OPERATIONS.find((o) => o.id === id)!;
}

/** Why an operation cannot run here (its area is not built, or not wired in this process). */
export function unavailableReason(b: BulkCtx, id: BulkOperationId): string | null {
  return BULK_UNAVAILABLE[id] ?? (b.handlers.has(id) ? null : 'Not available in this server.');
}

/** A run as the contract shows it: its plan, the ledger's counts, progress and the measured ETA. */
export async function toRun(b: BulkCtx, r: RunRow): Promise<BulkRun> {
  const [counts, span] = await Promise.all([runCounts(b.db, r), doneSpan(b.db, Number(r.id))]);
  const total = Number(r.total);
  const terminal = total - counts.pending;
  // Measured: items done per second between the first and the last item done (null until two are).
  const throughput =
    span.n >= 2 && span.last !== null && span.first !== null && span.last > span.first
      ? ((span.n - 1) * 1000) / (span.last - span.first)
      : null;
  const running = r.state === 'running';
  const target = targetOf(r);
  const options = optionsOf(r);
  return {
    id: Number(r.id),
    operation: r.operation as BulkOperationId,
    name: operationInfo(r.operation as BulkOperationId)?.name ?? r.operation,
    state: r.state as RunState,
    actor: r.actor,
    config: configOf(r),
    target: { kind: target.kind as BulkRun['target']['kind'], description: target.description },
    options: options ? options : null,
    plan: planCountsOf(r),
    counts,
    progress: total === 0 ? 100 : Math.round((terminal / total) * 1000) / 10,
    throughput: throughput === null ? null : Math.round(throughput * 100) / 100,
    estimatedTimeRemaining:
      running && throughput ? Math.round((counts.pending / throughput) * 1000) : running ? null : 0,
    currentItemName: running ? r.current_item : null,
    jobId: r.job_id === null ? null : Number(r.job_id),
    retryOf: r.retry_of === null ? null : Number(r.retry_of),
    batches: Number(r.batches),
    cause: r.cause,
    cancelRequested: Number(r.cancel_requested) === 1,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    duration:
      r.started_at !== null && r.finished_at !== null ? Number(r.finished_at) - Number(r.started_at) : null,
  };
}

export async function requireRun(b: BulkCtx, id: number): Promise<RunRow> {
  const r = await readRun(b.db, id);
  if (!r) throw notFound(`Bulk operation ${id} was not found.`);
  return r;
}

export async function getRun(b: BulkCtx, id: number): Promise<BulkRun> {
  return toRun(b, await requireRun(b, id));
}

export async function listRunItems(
  b: BulkCtx,
  id: number,
  q: {
    state?: ItemState | undefined;
    action?: PlanAction | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  },
): Promise<ItemsAnswer> {
  await requireRun(b, id);
  return listItems(b.db, id, {
    state: q.state,
    action: q.action,
    limit: q.limit ?? 100,
    offset: q.offset ?? 0,
  });
}

/** Clear History: the runs leave the history; the audit log keeps every line about them. */
export async function clearRunHistory(b: BulkCtx): Promise<number> {
  return clearHistory(b.db);
}

export async function listRuns(b: BulkCtx): Promise<RunsAnswer> {
  const [active, history] = await Promise.all([activeRuns(b.db, Date.now()), historyRuns(b.db)]);
  return {
    active: await Promise.all(active.map((r) => toRun(b, r))),
    history: await Promise.all(history.map((r) => toRun(b, r))),
  };
}

/** The operations with this administrator's saved choices (default: off, the first target). */
export async function listOperations(b: BulkCtx, admin: string): Promise<BulkOperation[]> {
  const prefs = await readPreferences(b.db, admin);
  return BULK_OPERATIONS.map((op) => {
    const p = prefs.get(op.id);
    const unavailable = unavailableReason(b, op.id);
    return {
      id: op.id,
      name: op.name,
      description: op.description,
      category: op.category,
      icon: op.icon,
      destructive: op.destructive,
      targets: [...op.targets],
      csvColumns: op.csvColumns ?? null,
      unavailable,
      enabled: unavailable ? false : (p?.enabled ?? false),
      config: { ...defaultBulkConfig(op), ...(p?.config ?? {}) },
    };
  });
}

export async function saveOperationPreference(
  b: BulkCtx,
  admin: string,
  id: BulkOperationId,
  body: SavePreferenceRequest,
): Promise<{ operation: BulkOperation; before: unknown }> {
  const current = (await listOperations(b, admin)).find((o) => o.id === id)!;
  const next = {
    enabled: current.unavailable ? false : (body.enabled ?? current.enabled),
    config: body.config ?? current.config,
  };
  await savePreference(b.db, admin, id, next);
  const operation = (await listOperations(b, admin)).find((o) => o.id === id)!;
  return { operation, before: { enabled: current.enabled, config: current.config } };
}

import {
  BULK_MAX_ITEMS,
  type BulkConfig,
  type BulkOptions,
  type BulkTarget,
  type PlanAnswer,
  type PlanCounts,
  PLAN_ACTIONS,
  bulkMessages,
  type BulkOperationId,
} from '@mailroom/contract/bulk';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import type { PlannedItem } from '../../lib/bulk-operation.ts';
import type { BulkCtx } from './bulk-context.types.ts';
import { operationInfo, toRun, unavailableReason } from './bulk-view.service.ts';
import { EXECUTABLE, insertRun, optionsOf, readRun, configOf } from './bulk.repository.ts';
import { type NewItem, failedItems, insertItems, listItems } from './bulk-item.repository.ts';

const FIRST_ITEMS = 200;

function describe(target: BulkTarget, rows: number): string {
  switch (target.kind) {
    case 'all':
      return 'All';
    case 'selected':
      return `${target.keys.length} selected`;
    case 'filtered': {
      const f = Object.entries(target.filter).filter(([, v]) => v !== undefined && v !== '');
      return f.length
        ? `Filtered: ${f.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`
        : 'Filtered: no filter';
    }
    case 'csv':
      return `CSV file (${rows} rows)`;
  }
}

function countsOf(items: { action: string }[]): PlanCounts {
  const c = Object.fromEntries(PLAN_ACTIONS.map((a) => [a, 0])) as PlanCounts;
  for (const i of items) c[i.action as keyof PlanCounts]++;
  return c;
}

/** Stores a frozen plan (the run, planned, and its ledger rows) and answers it with its first items. */
async function storePlan(
  b: BulkCtx,
  p: {
    operation: BulkOperationId;
    actor: string;
    config: BulkConfig;
    target: { kind: string; description: string };
    options: BulkOptions | null;
    items: NewItem[];
    retryOf: number | null;
  },
): Promise<PlanAnswer> {
  const counts = countsOf(p.items);
  const total = p.items.filter((i) => EXECUTABLE.includes(i.action)).length;
  const run = await b.db.transaction().execute(async (trx) => {
    const row = await insertRun(trx, {
      operation: p.operation,
      state: 'planned',
      actor: p.actor,
      config: JSON.stringify(p.config),
      target: JSON.stringify(p.target),
      options: p.options ? JSON.stringify(p.options) : null,
      plan_counts: JSON.stringify(counts),
      total,
      job_id: null,
      retry_of: p.retryOf,
      cause: null,
      current_item: null,
      created_at: Date.now(),
      started_at: null,
      finished_at: null,
    });
    await insertItems(trx, Number(row.id), p.items);
    return row;
  });
  const first = await listItems(b.db, Number(run.id), { limit: FIRST_ITEMS });
  return { run: await toRun(b, run), items: first.items };
}

/**
 * The dry run: the area freezes the target into an explicit item list and classifies each item
 * (create / update / delete / run, skip: exists, invalid + reason) with the rules of its single
 * action. Nothing in the area changes; the plan itself is stored so the run starts from exactly it.
 */
export async function makePlan(
  b: BulkCtx,
  req: {
    operation: BulkOperationId;
    target: BulkTarget;
    config: BulkConfig;
    options?: BulkOptions | undefined;
  },
  actor: string,
): Promise<PlanAnswer> {
  const info = operationInfo(req.operation);
  const why = unavailableReason(b, req.operation);
  if (why) throw fieldError('operation', why);
  if (!(info.targets as readonly string[]).includes(req.target.kind))
    throw fieldError('target', bulkMessages.targetNotTaken(req.target.kind, info.name));
  const handler = b.handlers.get(req.operation)!;
  const options = req.options ?? {};
  const planned: PlannedItem[] = await handler.plan({ target: req.target, options, actor });
  if (planned.length > BULK_MAX_ITEMS)
    throw fieldError(
      'target',
      `At most ${BULK_MAX_ITEMS} items in one operation (this target holds ${planned.length}).`,
    );
  const secrets = handler.secretFields ?? [];
  const items: NewItem[] = planned.map((it, i) => {
    let payload: string | null = null;
    if (it.payload && EXECUTABLE.includes(it.action)) {
      const p: Record<string, unknown> = { ...it.payload };
      for (const f of secrets) if (typeof p[f] === 'string') p[f] = b.vault.seal(p[f]);
      payload = JSON.stringify(p);
    }
    return {
      seq: i + 1,
      key: it.key,
      label: it.label,
      action: it.action,
      reason: it.reason ?? null,
      payload,
      before: it.before ?? null,
    };
  });
  const rows = req.target.kind === 'csv' ? planned.length : 0;
  return storePlan(b, {
    operation: req.operation,
    actor,
    config: req.config,
    target: { kind: req.target.kind, description: describe(req.target, rows) },
    options: Object.keys(options).length ? options : null,
    items,
    retryOf: null,
  });
}

/** Retry failed: a new plan of a finished run's failed items (their frozen payloads), to start again. */
export async function planRetry(b: BulkCtx, id: number, actor: string): Promise<PlanAnswer> {
  const run = await readRun(b.db, id);
  if (!run) throw notFound(`Bulk operation ${id} was not found.`);
  if (run.state === 'running' || run.state === 'planned') throw conflict(bulkMessages.stillRunning);
  const failed = await failedItems(b.db, id);
  if (!failed.length) throw conflict(bulkMessages.noFailed);
  const items: NewItem[] = failed.map((f, i) => ({
    seq: i + 1,
    key: f.item_key,
    label: f.label,
    action: f.action as NewItem['action'],
    reason: null,
    payload: f.payload,
    before: f.before === null ? null : (JSON.parse(f.before) as unknown),
  }));
  return storePlan(b, {
    operation: run.operation as BulkOperationId,
    actor,
    config: configOf(run),
    target: { kind: 'selected', description: `${failed.length} failed of run ${id}` },
    options: optionsOf(run),
    items,
    retryOf: id,
  });
}

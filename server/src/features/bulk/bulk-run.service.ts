import {
  BULK_FAILURE_BUDGET,
  BULK_RESULT_COLUMNS,
  type BulkOperationId,
  type BulkRun,
  bulkMessages,
  itemResultLabel,
  type ItemState,
  type PlanAction,
} from '@mailroom/contract/bulk';
import { csvHeader, csvLine } from '@mailroom/contract/csv-cell';
import type { Job } from '@mailroom/contract/jobs';
import { recordAudit } from '../../http/audit-log.repository.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { type LedgerEntry, errorOf } from '../../lib/bulk-operation.ts';
import { BULK_JOB_KIND, type BulkCtx, type JobContext, type JobOutcome } from './bulk-context.types.ts';
import { getRun, operationInfo } from './bulk-view.service.ts';
import { batchTools } from './bulk-batch.service.ts';
import {
  type ItemRow,
  allItems,
  batchResults,
  failPending,
  markNotProcessed,
  nextPending,
  runCounts,
} from './bulk-item.repository.ts';
import {
  type RunRow,
  bumpBatches,
  configOf,
  moveRun,
  optionsOf,
  planCountsOf,
  readRun,
  updateRun,
} from './bulk.repository.ts';

/** Starts a planned run as a queued, resumable job; a destructive one needs its count typed. */
export async function startRun(
  b: BulkCtx,
  id: number,
  confirm: number | undefined,
  actor: string,
): Promise<Job> {
  const run = await readRun(b.db, id);
  if (!run) throw notFound(`Bulk operation ${id} was not found.`);
  if (run.state !== 'planned') throw conflict(bulkMessages.notPlanned);
  const info = operationInfo(run.operation as BulkOperationId);
  const plan = planCountsOf(run);
  if (info.destructive && confirm !== plan.delete)
    throw fieldError('confirm', bulkMessages.confirmMismatch(plan.delete));
  if (Number(run.total) === 0) throw fieldError('target', bulkMessages.noItems);
  if (!(await moveRun(b.db, id, 'planned', { state: 'running', started_at: Date.now() })))
    throw conflict(bulkMessages.notPlanned);
  const job = await b.jobs.enqueue(
    BULK_JOB_KIND,
    `${info.name}: ${Number(run.total)} items`,
    actor,
    { runId: id },
    { resumable: true },
  );
  await updateRun(b.db, id, { job_id: job.id });
  return job;
}

export async function discardPlan(b: BulkCtx, id: number): Promise<BulkRun> {
  if (!(await moveRun(b.db, id, 'planned', { state: 'discarded', finished_at: Date.now(), cleared: 1 })))
    throw conflict(bulkMessages.notPlanned);
  return getRun(b, id);
}

/** Ends a run: what is still pending is not processed; the end is audited with its counts. */
async function finishRun(
  b: BulkCtx,
  run: RunRow,
  state: 'completed' | 'failed' | 'cancelled',
  cause: string | null,
) {
  await markNotProcessed(b.db, Number(run.id));
  await updateRun(b.db, Number(run.id), { state, cause, finished_at: Date.now(), current_item: null });
  const counts = await runCounts(b.db, run);
  await recordAudit(b.db, {
    actor: run.actor,
    action: 'bulk.run.finish',
    target: `bulk run ${run.id}`,
    outcome: state === 'completed' ? 'success' : 'failure',
    details: {
      operation: run.operation,
      state,
      config: configOf(run),
      target: JSON.parse(run.target) as unknown,
      plan: planCountsOf(run),
      counts,
      ...(cause ? { cause } : {}),
    },
  });
  return counts;
}

/** Cancel: the item in flight finishes and the run stops; a run whose job had not started ends now. */
export async function cancelRun(b: BulkCtx, id: number): Promise<BulkRun> {
  const run = await readRun(b.db, id);
  if (!run) throw notFound(`Bulk operation ${id} was not found.`);
  if (run.state !== 'running') throw conflict(`This operation has already ended (${run.state}).`);
  await updateRun(b.db, id, { cancel_requested: 1 });
  if (run.job_id !== null) {
    try {
      const job = await b.jobs.cancel(Number(run.job_id));
      // A queued job (not picked up yet, or waiting to resume) ended at once: so does the run.
      if (job.state === 'cancelled') await finishRun(b, run, 'cancelled', null);
    } catch {
      /* the job ended meanwhile; its run ends with it */
    }
  }
  return getRun(b, id);
}

function openEntry(b: BulkCtx, r: ItemRow, secrets: readonly string[]): LedgerEntry {
  const payload = (r.payload ? JSON.parse(r.payload) : {}) as Record<string, unknown>;
  for (const f of secrets) if (typeof payload[f] === 'string') payload[f] = b.vault.open(payload[f]);
  return {
    id: Number(r.id),
    seq: Number(r.seq),
    key: r.item_key,
    label: r.label,
    action: r.action as PlanAction,
    payload,
    // Only `each` marks a pending item (a batch's items end with their transaction or not at all).
    inFlight: r.batch !== null,
  };
}

/**
 * The job of a run: batch after batch of pending ledger items, in plan order. Each batch is one
 * call of the area's `runBatch` (one transaction, one apply); each item's ledger row is written in
 * the batch's transaction, so after a crash an item is either done (committed with its change) or
 * still pending (its change rolled back with it): the next start resumes from the pending items
 * and nothing is done twice. Without Continue on error the first failure stops the run; with it,
 * BULK_FAILURE_BUDGET failures in a row (or a batch the area refused whole) stop it as a systemic
 * fault, naming the cause.
 */
export async function runJob(b: BulkCtx, input: unknown, ctx: JobContext): Promise<JobOutcome> {
  const runId = Number((input as { runId?: unknown })?.runId);
  const run = await readRun(b.db, runId);
  if (!run || run.state !== 'running') return { result: { runId, state: run?.state ?? 'missing' } };
  const handler = b.handlers.get(run.operation as BulkOperationId);
  const config = configOf(run);
  const options = optionsOf(run) ?? {};
  const secrets = handler?.secretFields ?? [];
  const total = Number(run.total);
  const interrupted = () => (ctx.signal.reason as { state?: string } | undefined)?.state === 'interrupted';
  let cancelAsked = Number(run.cancel_requested) === 1;
  const stopNow = () => cancelAsked || ctx.signal.aborted;
  let batch = Number(run.batches);
  let cause: string | null = handler ? null : 'This operation is not available in this server.';
  let inARow = 0;
  let lastFailure = '';

  // The ledger's counts, read once and then kept from each batch's committed rows.
  let c = await runCounts(b.db, run);
  const report = () => {
    ctx.progress({
      processed: total - c.pending,
      total,
      counts: { succeeded: c.succeeded, failed: c.failed, skipped: c.skipped, notProcessed: c.notProcessed },
    });
  };
  report();

  while (handler && !cause && !stopNow()) {
    // Back to the event loop between batches: on SQLite every query answers synchronously, so a
    // run would otherwise be one unbroken chain of promises that no other request gets into.
    await new Promise((r) => setImmediate(r));
    const rows = await nextPending(b.db, runId, config.batchSize);
    if (!rows.length) break;
    batch++;
    const entries = rows.map((r) => openEntry(b, r, secrets));
    await updateRun(b.db, runId, { current_item: rows[0]!.label });
    ctx.progress({ phase: `Batch ${batch}: ${rows[0]!.label}` });
    const tools = batchTools(b, run, batch, config.continueOnError, options, ctx.signal, stopNow);
    try {
      await handler.runBatch(entries, tools);
    } catch (err) {
      // The batch as a whole: refused by the checker (nothing saved), or saved but not live.
      const { code, message } = errorOf(err);
      await failPending(
        b.db,
        entries.map((e) => e.id),
        batch,
        code,
        message,
        Date.now(),
      );
      cause = `Batch ${batch} failed as a whole (${code}): ${message}`;
    }
    if ((await bumpBatches(b.db, runId)).cancelRequested) cancelAsked = true;
    await b.afterBatch?.(runId, batch);
    // The failure policy, from what the ledger committed for this batch.
    const done = await batchResults(
      b.db,
      entries.map((e) => e.id),
    );
    for (const d of done) {
      if (d.state !== 'pending') c.pending--;
      if (d.state === 'succeeded') c.succeeded++;
      else if (d.state === 'skipped') c.skipped++;
      else if (d.state === 'failed') c.failed++;
      if (d.state === 'failed') {
        inARow++;
        lastFailure = `${d.label}: ${d.error_message ?? d.error_code ?? 'failed'}`;
        if (!cause && !config.continueOnError) cause = `Stopped at the first failure (${lastFailure}).`;
      } else if (d.state === 'succeeded') inARow = 0;
    }
    if (!cause && config.continueOnError && inARow >= BULK_FAILURE_BUDGET)
      cause = `Stopped: ${inARow} items in a row failed, which looks like a systemic fault. Last: ${lastFailure}`;
    report();
  }

  if (ctx.signal.aborted && interrupted()) {
    // The server stops: the job goes back to the queue and the next start resumes it.
    return { result: { runId, state: 'running' } };
  }
  const state = cancelAsked || ctx.signal.aborted ? 'cancelled' : cause ? 'failed' : 'completed';
  const counts = await finishRun(b, run, state, cause);
  c = counts;
  report();
  const summary = `${counts.succeeded} ok, ${counts.failed} failed, ${counts.notProcessed} not processed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`;
  if (state === 'failed') throw new Error(`${cause} ${summary}`);
  return {
    result: { runId, state, counts },
    counts: {
      succeeded: counts.succeeded,
      failed: counts.failed,
      notProcessed: counts.notProcessed,
      skipped: counts.skipped,
    },
    summary,
  };
}

/** The results download: every item with its result (succeeded / failed / not processed / skipped). */
export async function* resultsCsv(b: BulkCtx, id: number): AsyncGenerator<string> {
  const run = await readRun(b.db, id);
  if (!run) throw notFound(`Bulk operation ${id} was not found.`);
  yield csvHeader(BULK_RESULT_COLUMNS);
  for await (const rows of allItems(b.db, id)) {
    let out = '';
    for (const r of rows) {
      out += csvLine(
        {
          seq: Number(r.seq),
          item: r.label,
          action: r.action,
          result: itemResultLabel(r.state as ItemState),
          errorCode: r.error_code ?? '',
          message: r.error_message ?? r.reason ?? '',
        },
        BULK_RESULT_COLUMNS,
      );
    }
    yield out;
  }
}

export { BULK_JOB_KIND };

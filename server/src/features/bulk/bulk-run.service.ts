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
import type { Kysely } from 'kysely';
import { inSavepoint } from '../../db/savepoint.ts';
import type { Database } from '../../db/schema.ts';
import { type AuditInput, recordAudit, recordAudits } from '../../http/audit-log.repository.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import {
  type BatchTools,
  type ItemResult,
  type LedgerEntry,
  type SetPlan,
  errorOf,
} from '../../lib/bulk-operation.ts';
import { BULK_JOB_KIND, type BulkCtx, type JobContext, type JobOutcome } from './bulk-context.types.ts';
import { getRun, operationInfo } from './bulk-view.service.ts';
import {
  type ItemRow,
  allItems,
  batchResults,
  endItem,
  endItems,
  failPending,
  markInFlight,
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

type Db = Kysely<Database>;

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

const SAVEPOINT = 'bulk_item';

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

function batchTools(
  b: BulkCtx,
  run: RunRow,
  batch: number,
  continueOnError: boolean,
  options: Record<string, unknown>,
  signal: AbortSignal,
  stopNow: () => boolean,
): BatchTools {
  const auditLine = (e: LedgerEntry, before: unknown, after: unknown): AuditInput => ({
    actor: run.actor,
    action: run.operation,
    target: e.key,
    outcome: 'success',
    details: {
      bulkRun: Number(run.id),
      item: e.seq,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    },
  });
  const audit = (db: Db, e: LedgerEntry, before: unknown, after: unknown) =>
    recordAudit(db, auditLine(e, before, after));
  async function setItems<R>(trx: Db, entries: LedgerEntry[], plan: SetPlan<R>) {
    // Ledger rows and audit lines are gathered and written together at the end, in `trx`.
    const ends: Parameters<typeof endItems>[2] = [];
    const lines: AuditInput[] = [];
    const at = Date.now();
    let failed = 0;
    const ok = (e: LedgerEntry, r: ItemResult) => {
      ends.push({
        entry: e,
        end: {
          state: r.skipped ? 'skipped' : 'succeeded',
          batch,
          reason: r.skipped ?? null,
          before: r.before,
          after: r.after,
          at,
          keepPayload: false,
        },
      });
      if (!r.skipped) lines.push(auditLine(e, r.before, r.after));
    };
    /** Records a failure; true when the run stops at it (Continue on error off). */
    const fail = (e: LedgerEntry, err: unknown) => {
      const { code, message } = errorOf(err);
      ends.push({
        entry: e,
        end: { state: 'failed', batch, errorCode: code, errorMessage: message, at, keepPayload: true },
      });
      failed++;
      return !continueOnError;
    };
    /** One entry under its own savepoint; true when the run stops at it. */
    const single = async (e: LedgerEntry) => {
      let r: ItemResult;
      try {
        r = await inSavepoint(trx, SAVEPOINT, () => plan.step(e, trx));
      } catch (err) {
        return fail(e, err);
      }
      ok(e, r);
      return false;
    };
    let waiting: { entry: LedgerEntry; row: R; result: ItemResult }[] = [];
    /** Writes the waiting rows in one go; if that fails, each alone. True when the run stops. */
    const flush = async () => {
      if (!waiting.length) return false;
      const part = waiting;
      waiting = [];
      try {
        await inSavepoint(trx, SAVEPOINT, () =>
          plan.write(
            trx,
            part.map((p) => p.row),
          ),
        );
      } catch {
        // Someone's row broke the set: find it (and only it) by running each on its own.
        for (const p of part) if (await single(p.entry)) return true;
        return false;
      }
      for (const p of part) ok(p.entry, p.result);
      return false;
    };
    let stopped = false;
    for (const e of entries) {
      if (stopNow()) break;
      const p = plan.prepare(e);
      if (p !== 'single' && 'row' in p) {
        waiting.push({ entry: e, row: p.row, result: p.result });
        continue;
      }
      if ((stopped = await flush())) break;
      if (p === 'single') stopped = await single(e);
      else if ('error' in p) stopped = fail(e, p.error);
      else ok(e, p.result);
      if (stopped) break;
    }
    if (!stopped) await flush();
    ends.sort((a, b) => a.entry.seq - b.entry.seq);
    await endItems(trx, Number(run.id), ends);
    await recordAudits(trx, lines);
    return { done: ends.length - failed, failed };
  }
  return {
    signal,
    actor: run.actor,
    options,
    startedAt: Number(run.started_at ?? run.created_at),
    setItems,
    async items(trx, entries, step) {
      return setItems<never>(trx, entries, {
        prepare: () => 'single',
        write: async () => {},
        step,
      });
    },
    async each(entries, work) {
      let done = 0;
      let failed = 0;
      for (const e of entries) {
        if (stopNow()) break;
        // In flight: a crash from here on leaves it pending with its batch set; the area's work
        // checks the real state before doing it again.
        await markInFlight(b.db, e.id, batch);
        try {
          const r = await work(e);
          await b.db.transaction().execute(async (trx) => {
            await endItem(trx, e.id, {
              state: r.skipped ? 'skipped' : 'succeeded',
              batch,
              reason: r.skipped ?? undefined,
              before: r.before,
              after: r.after,
              at: Date.now(),
              keepPayload: false,
            });
            if (!r.skipped) await audit(trx, e, r.before, r.after);
          });
          done++;
        } catch (err) {
          const { code, message } = errorOf(err);
          await endItem(b.db, e.id, {
            state: 'failed',
            batch,
            errorCode: code,
            errorMessage: message,
            at: Date.now(),
            keepPayload: true,
          });
          failed++;
          if (!continueOnError) break;
        }
      }
      return { done, failed };
    },
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

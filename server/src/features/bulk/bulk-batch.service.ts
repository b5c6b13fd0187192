import type { Kysely } from 'kysely';
import { inSavepoint } from '../../db/savepoint.ts';
import type { Database } from '../../db/schema.ts';
import { type AuditInput, recordAudit, recordAudits } from '../../http/audit-log.repository.ts';
import {
  type BatchTools,
  type ItemResult,
  type LedgerEntry,
  type SetPlan,
  errorOf,
} from '../../lib/bulk-operation.ts';
import { type BulkCtx } from './bulk-context.types.ts';
import { endItem, endItems, markInFlight } from './bulk-item.repository.ts';
import { type RunRow } from './bulk.repository.ts';

type Db = Kysely<Database>;

const SAVEPOINT = 'bulk_item';

/**
 * The tools a run's batch gets from the ledger: `each` runs items one by one (each in its own
 * transaction), `set` runs them as one set with a savepoint per failing row; every end is written
 * to the ledger and audited in the batch's transaction.
 */
export function batchTools(
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

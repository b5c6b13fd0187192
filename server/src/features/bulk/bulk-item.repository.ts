import type { BulkItem, ItemState, PlanAction, RunCounts } from '@mailroom/contract/bulk';
import type { Kysely, Selectable } from 'kysely';
import type { BulkItemTable } from '../../db/bulk.tables.ts';
import type { Database } from '../../db/schema.ts';
import { EXECUTABLE, json, parse, type RunRow } from './bulk.repository.ts';

/** The owner of `bulk_items`: a run's ledger, one row per item, written as items end. */

type Db = Kysely<Database>;
export type ItemRow = Selectable<BulkItemTable>;
const INSERT_ROWS = 500;

export interface NewItem {
  seq: number;
  key: string;
  label: string;
  action: PlanAction;
  reason: string | null;
  payload: string | null;
  before: unknown;
}

export async function insertItems(db: Db, runId: number, items: NewItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += INSERT_ROWS) {
    await db
      .insertInto('bulk_items')
      .values(
        items.slice(i, i + INSERT_ROWS).map((it) => ({
          run_id: runId,
          seq: it.seq,
          item_key: it.key.slice(0, 1000),
          label: it.label.slice(0, 1000),
          action: it.action,
          reason: it.reason?.slice(0, 2000) ?? null,
          payload: it.payload,
          state: EXECUTABLE.includes(it.action) ? 'pending' : 'skipped',
          before: json(it.before),
        })),
      )
      .execute();
  }
}

/** Counts of the ledger by state (skipped = settled by the plan or found done). */
export async function runCounts(db: Db, run: RunRow): Promise<RunCounts> {
  const rows = await db
    .selectFrom('bulk_items')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('run_id', '=', run.id)
    .groupBy('state')
    .execute();
  const by = new Map(rows.map((r) => [r.state, Number(r.n)]));
  return {
    total: Number(run.total),
    succeeded: by.get('succeeded') ?? 0,
    failed: by.get('failed') ?? 0,
    notProcessed: by.get('not_processed') ?? 0,
    pending: by.get('pending') ?? 0,
    skipped: by.get('skipped') ?? 0,
  };
}

/** Items a run acted on that are done (or found done) since it started, and their time span. */
export async function doneSpan(
  db: Db,
  runId: number,
): Promise<{ n: number; first: number | null; last: number | null }> {
  const r = await db
    .selectFrom('bulk_items')
    .select([
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.min<number | null>('done_at').as('first'),
      (eb) => eb.fn.max<number | null>('done_at').as('last'),
    ])
    .where('run_id', '=', runId)
    .where('done_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return {
    n: Number(r.n),
    first: r.first === null ? null : Number(r.first),
    last: r.last === null ? null : Number(r.last),
  };
}

export async function nextPending(db: Db, runId: number, limit: number): Promise<ItemRow[]> {
  return db
    .selectFrom('bulk_items')
    .selectAll()
    .where('run_id', '=', runId)
    .where('state', '=', 'pending')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export interface ItemEnd {
  state: Exclude<ItemState, 'pending'>;
  batch: number | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  at: number;
  /** Keep the payload (a failed item can be retried); otherwise it is dropped with its secrets. */
  keepPayload: boolean;
}

export async function endItem(db: Db, id: number, end: ItemEnd): Promise<void> {
  await db
    .updateTable('bulk_items')
    .set((eb) => ({
      state: end.state,
      attempt: eb('attempt', '+', 1),
      batch: end.batch,
      error_code: end.errorCode ?? null,
      error_message: end.errorMessage ?? null,
      ...(end.before !== undefined ? { before: json(end.before) } : {}),
      ...(end.after !== undefined ? { after: json(end.after) } : {}),
      ...(end.reason !== undefined ? { reason: end.reason } : {}),
      ...(end.keepPayload ? {} : { payload: null }),
      done_at: end.at,
    }))
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** Several items' ends in one statement (a batch's ledger rows, written in its transaction). */
export async function endItems(
  db: Db,
  runId: number,
  ends: { entry: { seq: number; key: string; label: string; action: PlanAction }; end: ItemEnd }[],
): Promise<void> {
  for (let i = 0; i < ends.length; i += 100) {
    await db
      .insertInto('bulk_items')
      .values(
        ends.slice(i, i + 100).map(({ entry, end }) => ({
          run_id: runId,
          seq: entry.seq,
          item_key: entry.key,
          label: entry.label,
          action: entry.action,
          state: end.state,
          batch: end.batch,
          error_code: end.errorCode ?? null,
          error_message: end.errorMessage ?? null,
          before: json(end.before),
          after: json(end.after),
          reason: end.reason ?? null,
          done_at: end.at,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['run_id', 'seq'])
          .doUpdateSet((eb) => ({
            state: eb.ref('excluded.state'),
            attempt: eb('bulk_items.attempt', '+', 1),
            batch: eb.ref('excluded.batch'),
            error_code: eb.ref('excluded.error_code'),
            error_message: eb.ref('excluded.error_message'),
            before: eb.fn.coalesce('excluded.before', 'bulk_items.before'),
            after: eb.ref('excluded.after'),
            reason: eb.fn.coalesce('excluded.reason', 'bulk_items.reason'),
            // A failed item keeps its payload (Retry failed); a done one drops it and its secrets.
            payload: eb
              .case()
              .when('excluded.state', '=', 'failed')
              .then(eb.ref('bulk_items.payload'))
              .else(null)
              .end(),
            done_at: eb.ref('excluded.done_at'),
          }))
          .where('bulk_items.state', '=', 'pending'),
      )
      .execute();
  }
}

/** A whole batch refused (its apply failed before anything was saved): each pending item failed. */
export async function failPending(
  db: Db,
  ids: number[],
  batch: number,
  code: string,
  message: string,
  at: number,
): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('bulk_items')
    .set((eb) => ({
      state: 'failed',
      attempt: eb('attempt', '+', 1),
      batch,
      error_code: code,
      error_message: message.slice(0, 2000),
      done_at: at,
    }))
    .where('id', 'in', ids)
    .where('state', '=', 'pending')
    .execute();
}

/** The rest of a stopped run: not processed (never failed). */
export async function markNotProcessed(db: Db, runId: number): Promise<number> {
  const r = await db
    .updateTable('bulk_items')
    .set({ state: 'not_processed' })
    .where('run_id', '=', runId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export function toItem(r: ItemRow): BulkItem {
  return {
    seq: Number(r.seq),
    key: r.item_key,
    label: r.label,
    action: r.action as PlanAction,
    reason: r.reason,
    state: r.state as ItemState,
    attempt: Number(r.attempt),
    batch: r.batch === null ? null : Number(r.batch),
    errorCode: r.error_code,
    errorMessage: r.error_message,
    before: parse<unknown>(r.before, null),
    after: parse<unknown>(r.after, null),
    doneAt: r.done_at === null ? null : new Date(Number(r.done_at)).toISOString(),
  };
}

export async function listItems(
  db: Db,
  runId: number,
  q: { state?: ItemState | undefined; action?: PlanAction | undefined; limit?: number; offset?: number },
): Promise<{ items: BulkItem[]; total: number }> {
  let base = db.selectFrom('bulk_items').where('run_id', '=', runId);
  if (q.state) base = base.where('state', '=', q.state);
  if (q.action) base = base.where('action', '=', q.action);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('seq')
      .limit(q.limit ?? 100)
      .offset(q.offset ?? 0)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toItem), total: Number(total.n) };
}

/** Every item of a run in order, a page at a time (the results download). */
export async function* allItems(db: Db, runId: number): AsyncGenerator<ItemRow[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('bulk_items')
      .selectAll()
      .where('run_id', '=', runId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(2000)
      .execute();
    if (!rows.length) return;
    yield rows;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

/** A finished run's failed items (payloads kept), for Retry failed. */
export async function failedItems(db: Db, runId: number): Promise<ItemRow[]> {
  return db
    .selectFrom('bulk_items')
    .selectAll()
    .where('run_id', '=', runId)
    .where('state', '=', 'failed')
    .orderBy('seq')
    .execute();
}

/** A batch's items as the ledger committed them, in plan order (the failure policy reads them). */
export async function batchResults(
  db: Db,
  ids: number[],
): Promise<{ label: string; state: string; error_message: string | null; error_code: string | null }[]> {
  return db
    .selectFrom('bulk_items')
    .select(['label', 'state', 'error_message', 'error_code'])
    .where('id', 'in', ids)
    .orderBy('seq')
    .execute();
}

/** An item about to run on its own (not in a batch transaction): in flight until its row ends. */
export async function markInFlight(db: Db, id: number, batch: number): Promise<void> {
  await db.updateTable('bulk_items').set({ batch }).where('id', '=', id).execute();
}

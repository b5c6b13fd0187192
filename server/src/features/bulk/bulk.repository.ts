import {
  BULK_HISTORY_CAP,
  BULK_REMOVE_AFTER_CANCEL_MS,
  BULK_REMOVE_AFTER_COMPLETE_MS,
  type BulkConfig,
  type PlanAction,
  type PlanCounts,
} from '@mailroom/contract/bulk';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { BulkRunTable } from '../../db/bulk.tables.ts';
import type { Database } from '../../db/schema.ts';

/** The owner of `bulk_runs` (a run, its plan and state); the ledger is bulk-item.repository.ts. */

type Db = Kysely<Database>;
export type RunRow = Selectable<BulkRunTable>;

/** Actions a run acts on; skip and invalid items are settled by the plan. */
export const EXECUTABLE: readonly PlanAction[] = ['create', 'update', 'delete', 'run'];

export const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
export function parse<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function insertRun(db: Db, run: Omit<Insertable<BulkRunTable>, 'id'>): Promise<RunRow> {
  return db.insertInto('bulk_runs').values(run).returningAll().executeTakeFirstOrThrow();
}

export async function readRun(db: Db, id: number): Promise<RunRow | undefined> {
  return db.selectFrom('bulk_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Running runs, and those that ended within the spec's removal delay (3 s, 2 s after cancel). */
export async function activeRuns(db: Db, now: number): Promise<RunRow[]> {
  return db
    .selectFrom('bulk_runs')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('state', '=', 'running'),
        eb.and([
          eb('state', 'in', ['completed', 'failed']),
          eb('finished_at', '>=', now - BULK_REMOVE_AFTER_COMPLETE_MS),
        ]),
        eb.and([eb('state', '=', 'cancelled'), eb('finished_at', '>=', now - BULK_REMOVE_AFTER_CANCEL_MS)]),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

/** The history: ended runs not cleared, newest first, capped at 20 (spec §9). */
export async function historyRuns(db: Db): Promise<RunRow[]> {
  return db
    .selectFrom('bulk_runs')
    .selectAll()
    .where('state', 'in', ['completed', 'failed', 'cancelled'])
    .where('cleared', '=', 0)
    .orderBy('id', 'desc')
    .limit(BULK_HISTORY_CAP)
    .execute();
}

export async function clearHistory(db: Db): Promise<number> {
  const r = await db
    .updateTable('bulk_runs')
    .set({ cleared: 1 })
    .where('state', 'in', ['completed', 'failed', 'cancelled'])
    .where('cleared', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function updateRun(db: Db, id: number, set: Partial<Omit<RunRow, 'id'>>): Promise<void> {
  await db.updateTable('bulk_runs').set(set).where('id', '=', id).execute();
}

/** Moves a run from one state to another; false when it was not in `from`. */
export async function moveRun(
  db: Db,
  id: number,
  from: string,
  set: Partial<Omit<RunRow, 'id'>>,
): Promise<boolean> {
  const r = await db
    .updateTable('bulk_runs')
    .set(set)
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Counts a committed batch; answers whether a cancel was asked meanwhile (one round trip for both). */
export async function bumpBatches(db: Db, id: number): Promise<{ cancelRequested: boolean }> {
  const r = await db
    .updateTable('bulk_runs')
    .set((eb) => ({ batches: eb('batches', '+', 1) }))
    .where('id', '=', id)
    .returning('cancel_requested')
    .executeTakeFirst();
  return { cancelRequested: Number(r?.cancel_requested ?? 0) === 1 };
}

export const planCountsOf = (r: RunRow): PlanCounts =>
  parse<PlanCounts>(r.plan_counts, { create: 0, update: 0, delete: 0, run: 0, skip: 0, invalid: 0 });
export const configOf = (r: RunRow): BulkConfig => parse<BulkConfig>(r.config, {} as BulkConfig);
export const targetOf = (r: RunRow) =>
  parse<{ kind: string; description: string }>(r.target, { kind: 'all', description: '' });
export const optionsOf = (r: RunRow) => parse<Record<string, unknown> | null>(r.options, null);
